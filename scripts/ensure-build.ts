// `npm start` on a fresh clone: build once when no build exists yet.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

if (!fs.existsSync("build/server/index.js") || !fs.existsSync("build/client")) {
  console.log("No build found: building Murmur (about a minute)…");
  const result = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}
