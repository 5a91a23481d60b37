import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "#app/db/database.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { createPglite } from "#app/db/pglite.server.ts";

// Vitest runs every test file in a fresh process, and starting PGlite (initdb in WASM) plus every
// migration costs seconds per file on this 2-core machine. Do it once per run, dump the data
// directory, and let each file load the dump (tests/setup/databases.ts) — same schema, a fraction
// of the start-up time.
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "murmur-vitest-"));
  const file = path.join(dir, "migrated.tar");
  const base = await createPglite();
  const db = await openDatabase({ pglite: base });
  await migrate(db);
  await db.close();
  const dump = await base.dumpDataDir("none");
  await base.close();
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("migratedPgliteDump", file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    migratedPgliteDump: string;
  }
}
