import fs from "node:fs";
import path from "node:path";

// Issue 25: the embedded database's files were world-writable (0666, PGlite's file system sets
// modes itself) and audio was 0644. Patient data on disk is for the server's own user only:
// folders 0700, files 0600. A 0700 folder also shuts out files a library creates with looser modes.
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) and makes it 0700. */
export function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Makes every folder under `dir` 0700 and every regular file 0600 (sockets and links are left
 * alone): for data written before this rule, or by a library that chose its own modes.
 */
export function tightenTree(dir: string): void {
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        fs.chmodSync(full, PRIVATE_DIR_MODE);
        walk(full);
      } else if (entry.isFile()) {
        fs.chmodSync(full, PRIVATE_FILE_MODE);
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
}
