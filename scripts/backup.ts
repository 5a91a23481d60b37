// `npm run backup -- --out <file>`: an archive of MURMUR_DATA_DIR (embedded database, audio blobs,
// secret key) consistent as of one instant, also while the server runs; with DATABASE_URL the
// database is dumped with pg_dump (docs/operations.md, ADR 0024).
import { parseArgs } from "node:util";
import { createBackup } from "../app/services/backup/backup.server.ts";
import { BackupError } from "../app/services/backup/errors.server.ts";
import { parseEnv } from "../app/utils/env.server.ts";

const { values } = parseArgs({ options: { out: { type: "string" } } });
if (!values.out) {
  console.error("usage: npm run backup -- --out <file>   (reads MURMUR_DATA_DIR, and DATABASE_URL when set)");
  process.exit(2);
}
const env = parseEnv(process.env);
try {
  const summary = await createBackup({
    dataDir: env.MURMUR_DATA_DIR,
    out: values.out,
    databaseUrl: env.DATABASE_URL,
    storage: process.env.S3_BUCKET ? "s3" : "local",
    log: (line) => console.log(line),
  });
  if (process.env.S3_BUCKET)
    console.log("audio is in the S3 bucket, not in this archive: keep bucket versioning on (docs/operations.md)");
  console.log(JSON.stringify({ event: "backup_written", ...summary }));
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`backup failed (${error.code}): ${error.message}`);
  process.exit(1);
}
