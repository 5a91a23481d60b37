// `npm run restore -- --in <file>`: unpacks a backup into MURMUR_DATA_DIR, which must be empty or
// absent, after checking every file against the archive's checksums; a PostgreSQL dump goes into
// the empty database DATABASE_URL names (docs/operations.md, ADR 0024).
import { parseArgs } from "node:util";
import { BackupError } from "../app/services/backup/errors.server.ts";
import { restoreBackup } from "../app/services/backup/restore.server.ts";
import { parseEnv } from "../app/utils/env.server.ts";

const { values } = parseArgs({ options: { in: { type: "string" } } });
if (!values.in) {
  console.error("usage: npm run restore -- --in <file>   (into MURMUR_DATA_DIR, which must be empty)");
  process.exit(2);
}
const env = parseEnv(process.env);
try {
  const summary = await restoreBackup({
    archive: values.in,
    dataDir: env.MURMUR_DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    log: (line) => console.log(line),
  });
  console.log(JSON.stringify({ event: "backup_restored", ...summary }));
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`restore refused (${error.code}): ${error.message}`);
  process.exit(1);
}
