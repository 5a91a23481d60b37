import { sql } from "kysely";
import type { Database } from "./database.server.ts";

const READINESS_TIMEOUT_MS = 2000;

/** True when the database answers a trivial query within two seconds. */
export async function checkDatabase(db: Database): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS);
  });
  const probe = sql<{ ok: number }>`select 1 as ok`
    .execute(db.kysely)
    .then((r) => r.rows[0]?.ok === 1)
    .catch(() => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
