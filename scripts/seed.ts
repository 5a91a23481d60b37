// `npm run seed`: applies migrations to the configured database (PGlite under MURMUR_DATA_DIR, or
// DATABASE_URL) and loads demo data through the registered seeders, each idempotent.
import { openDatabase } from "../app/db/database.server.ts";
import { migrate } from "../app/db/migrate.server.ts";
import { runSeeders } from "../app/db/seed/run.server.ts";
import { parseEnv } from "../app/utils/env.server.ts";

const env = parseEnv(process.env);
const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.MURMUR_DATA_DIR });
try {
  const applied = await migrate(db);
  console.log(`migrations: ${applied.length ? applied.join(", ") : "up to date"} (${db.kind})`);
  for (const line of await runSeeders(db)) console.log(line);
} finally {
  await db.close();
}
