import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "#app/db/database.server.ts";
import { createLocalBlobStore } from "#app/services/storage/local-disk.server.ts";
import { spoolToScratch } from "#app/services/storage/spool.server.ts";

// Issue 25 probe: "the embedded database's files are world-writable (0666) and audio 0644".
// Patient data on disk is the server user's only: folders 0700, files 0600.

const root = fs.mkdtempSync(path.join(os.tmpdir(), "murmur-private-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const mode = (p: string) => fs.statSync(p).mode & 0o777;

/** Every folder and regular file under `dir` whose mode lets another user in. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) {
        if (mode(full) & 0o077) found.push(`${full} ${mode(full).toString(8)}`);
        walk(full);
      } else if (e.isFile() && mode(full) & 0o077) {
        found.push(`${full} ${mode(full).toString(8)}`);
      }
    }
  };
  walk(dir);
  return found;
}

it("keeps the embedded database in 0700 folders and its files 0600", async () => {
  const dataDir = path.join(root, "data");
  fs.mkdirSync(dataDir, { mode: 0o777 });
  fs.chmodSync(dataDir, 0o777);
  const first = await openDatabase({ dataDir });
  try {
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, "pglite"))).toBe(0o700);
    expect(mode(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(0o600);
    expect(openToOthers(path.join(dataDir, "pglite"))).toEqual([]);
  } finally {
    await first.close();
  }
  // A data folder from before the rule (PGlite's own 0666) is tightened at the next start.
  fs.chmodSync(path.join(dataDir, "pglite", "PG_VERSION"), 0o666);
  fs.chmodSync(path.join(dataDir, "pglite", "base"), 0o777);
  const second = await openDatabase({ dataDir });
  try {
    expect(openToOthers(path.join(dataDir, "pglite"))).toEqual([]);
  } finally {
    await second.close();
  }
}, 120_000);

it("writes audio blobs 0600 in 0700 folders, uploaded or spooled", async () => {
  const blobs = path.join(root, "blobs");
  const store = createLocalBlobStore(blobs);
  await store.put("orgs/o1/visits/v1/audio.webm", new Uint8Array([1, 2, 3]));
  const spooled = await spoolToScratch(
    store,
    new ReadableStream({
      start(c) {
        c.enqueue(new Uint8Array([4, 5, 6]));
        c.close();
      },
    }),
    1024,
  );
  await store.putFile("orgs/o1/visits/v1/upload.wav", spooled.path);
  expect(mode(blobs)).toBe(0o700);
  expect(mode(path.join(blobs, "orgs/o1/visits/v1/audio.webm"))).toBe(0o600);
  expect(mode(path.join(blobs, "orgs/o1/visits/v1/upload.wav"))).toBe(0o600);
  expect(openToOthers(blobs)).toEqual([]);
});
