// The frozen copy of a data folder a backup archives (ADR 0024). It is built inside the data folder
// (same file system) so audio blobs are hard links, taken in milliseconds whatever their size:
// a blob file is never rewritten in place (local-disk.server.ts renames a finished file over it),
// so a link keeps the bytes of the moment even if the app later deletes or replaces the blob.
// Everything else (the embedded database's files, the secret key) is copied byte for byte.

import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";

/** Top-level entries of a data folder that are never part of a backup. */
export const STAGING_PREFIX = ".backup-staging-";
export const CONTROL_SOCKET = "backup.sock";
const SKIPPED_TOP = (name: string) => name.startsWith(STAGING_PREFIX) || name === CONTROL_SOCKET || name.startsWith(".restore-");
/** The blob store's scratch folder: unfinished writes, never referenced by the database. */
const SKIPPED_PATHS = new Set(["blobs/.scratch"]);

export function newStagingDir(dataDir: string): string {
  return path.join(dataDir, `${STAGING_PREFIX}${randomUUID()}`);
}

/**
 * Copies `dataDir` into `stagingDir` (links under blobs/, copies elsewhere). `only` limits it to
 * some top-level entries; `except` leaves some out (a server PostgreSQL's dump replaces pglite/).
 * Returns how many files were linked and copied.
 */
export async function stageDataDir(
  dataDir: string,
  stagingDir: string,
  options: { except?: string[] } = {},
): Promise<{ linked: number; copied: number }> {
  const counts = { linked: 0, copied: 0 };
  const except = new Set(options.except ?? []);
  await fsp.mkdir(stagingDir, { recursive: true, mode: 0o700 });
  const walk = async (relative: string): Promise<void> => {
    const entries = await fsp.readdir(path.join(dataDir, relative), { withFileTypes: true });
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && (SKIPPED_TOP(entry.name) || except.has(entry.name))) continue;
      if (SKIPPED_PATHS.has(rel)) continue;
      const from = path.join(dataDir, rel);
      const to = path.join(stagingDir, rel);
      if (entry.isDirectory()) {
        await fsp.mkdir(to, { recursive: true });
        await walk(rel);
      } else if (entry.isFile()) {
        if (rel.startsWith("blobs/")) {
          const how = await linkOrCopy(from, to);
          if (how !== "gone") counts[how] += 1;
        } else {
          await fsp.copyFile(from, to);
          counts.copied += 1;
        }
      }
      // Sockets, links and devices are not data: skipped.
    }
  };
  await walk("");
  return counts;
}

/** A hard link, or a copy when the file system refuses links. */
async function linkOrCopy(from: string, to: string): Promise<"linked" | "copied" | "gone"> {
  try {
    await fsp.link(from, to);
    return "linked";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Deleted between the listing and now. While the snapshot holds the database, a delete can
    // only follow a commit made before it (blobs are removed after their rows), so no row needs it.
    if (code === "ENOENT") return "gone";
    if (code !== "EXDEV" && code !== "EPERM" && code !== "EMLINK") throw error;
    await fsp.copyFile(from, to);
    return "copied";
  }
}
