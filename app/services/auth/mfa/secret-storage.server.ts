import { sql } from "kysely";
import type { Database } from "#app/db/database.server.ts";
import { resealed } from "#app/services/secrets/envelope.server.ts";
import type { SecretKeys } from "#app/services/secrets/secret-keys.server.ts";

/**
 * Seals every TOTP secret still stored in plain text (written before encryption at rest) and
 * re-wraps those sealed under a previous secret key, so a rotation completes at the next start.
 * Each row is updated only if it still holds what was read, so two instances starting together
 * do not undo each other. Returns how many rows changed.
 */
export async function resealTotpSecrets(db: Database, keys: SecretKeys): Promise<number> {
  const { rows } = await sql<{ id: string; secret: string }>`
    select id, secret from auth.mfa_factors
    where secret is not null and secret not like ${`enc:v1:${keys.current.id}:%`}`.execute(db.kysely);
  let changed = 0;
  for (const row of rows) {
    const next = resealed(keys, row.secret);
    if (next === null) continue;
    const result = await sql`update auth.mfa_factors set secret = ${next}
                             where id = ${row.id} and secret = ${row.secret}`.execute(db.kysely);
    changed += Number(result.numAffectedRows ?? 0);
  }
  return changed;
}
