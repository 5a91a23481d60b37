import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// One id per build, shared by the server and browser bundles (SPEC §4 Version updates).
function computeBuildId(): string {
  if (process.env.MURMUR_BUILD_ID) return process.env.MURMUR_BUILD_ID;
  let sha = "nogit";
  try {
    sha = execSync("git rev-parse --short=10 HEAD", { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    // building from an export without git history
  }
  return `${sha}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
}

// Stored in the environment so the client and server builds (and server.ts) agree on it.
process.env.MURMUR_BUILD_ID ??= computeBuildId();
process.env.MURMUR_BUILD_TIME ??= new Date().toISOString();
const buildId = process.env.MURMUR_BUILD_ID;
const buildTime = process.env.MURMUR_BUILD_TIME;

export default defineConfig(({ command }) => ({
  plugins: [tailwindcss(), reactRouter()],
  define: {
    __MURMUR_BUILD_ID__: JSON.stringify(command === "build" ? buildId : "dev"),
    __MURMUR_BUILD_TIME__: JSON.stringify(buildTime),
  },
  server: { hmr: process.env.NODE_ENV !== "test" },
  build: { sourcemap: false },
}));
