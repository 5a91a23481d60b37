import { type Extensions, PGlite, type PGliteOptions } from "@electric-sql/pglite";

// Every embedded PGlite is opened here (the app, the test setup, the e2e helpers) so they all
// carry the same extensions: a data folder made with `vector` must be reopened with it, or the
// first query touching a vector fails (ADR 0027).
//
// pgvector for PGlite is the separate package @electric-sql/pglite-pgvector (its build of
// pgvector's `vector.so` for PGlite's WASM Postgres). It is loaded when installed; without it
// `vector` is simply not in pg_available_extensions, migrations skip the pgvector parts and dense
// retrieval computes the cosine over real[] (ADR 0020), so nothing else changes.

let extensionsPromise: Promise<Extensions> | null = null;

/** The PGlite extensions this install can load (pgvector when its package is present). */
export function pgliteExtensions(): Promise<Extensions> {
  extensionsPromise ??= (async () => {
    try {
      const { vector } = await import("@electric-sql/pglite-pgvector");
      return { vector } as Extensions;
    } catch (error) {
      if (isModuleNotFound(error)) return {};
      throw error;
    }
  })();
  return extensionsPromise;
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/** A PGlite with this install's extensions; `dataDir` undefined or "memory://" keeps it in memory. */
export async function createPglite(options: Omit<PGliteOptions, "extensions"> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, extensions: await pgliteExtensions() });
}
