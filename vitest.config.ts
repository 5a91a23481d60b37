import { defineConfig } from "vitest/config";

// Loaders, services and the database run for real; the React Router Vite plugin is not needed here.
export default defineConfig({
  define: {
    __MURMUR_BUILD_ID__: JSON.stringify("test-build"),
    __MURMUR_BUILD_TIME__: JSON.stringify("2026-01-01T00:00:00.000Z"),
  },
  test: {
    include: [
      "tests/unit/**/*.test.ts",
      "tests/db/**/*.test.ts",
      "tests/auth/**/*.test.ts",
      "tests/orgs/**/*.test.ts",
      "tests/billing/**/*.test.ts",
      "tests/speech/**/*.test.ts",
      "tests/recorder/**/*.test.ts",
      "tests/visits/**/*.test.ts",
      "tests/notes/**/*.test.ts",
      "tests/rag/**/*.test.ts",
      "tests/perio/**/*.test.ts",
      "tests/coding/**/*.test.ts",
      "tests/dashboard/**/*.test.ts",
      "tests/onboarding/**/*.test.ts",
      "tests/server/**/*.test.ts",
      "app/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**"],
    environment: "node",
    globalSetup: ["tests/setup/global-migrated-pglite.ts", "tests/setup/global-postgres-workers.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default on 2 cores is one worker (cores - 1): every file waited for the one before,
    // while most of a database file's time is spent waiting on PostgreSQL, a child server or a
    // decoder. Two files at a time, each on its own databases (a PGlite per file, a PostgreSQL
    // database per worker), share nothing. VITEST_MAX_WORKERS overrides it (1 = the old order).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 2,
  },
});
