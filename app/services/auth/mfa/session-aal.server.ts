import { sql } from "kysely";
import type { AmrEntry } from "../jwt.server.ts";
import type { SessionRow } from "../sessions.server.ts";

type Executor = Parameters<ReturnType<typeof sql>["execute"]>[0];

/** GoTrue's AMR method names for the second factors (what supabase-js's AMRMethod lists). */
export function amrMethod(factorType: "totp" | "phone"): string {
  return factorType === "totp" ? "totp" : "mfa/phone";
}

/**
 * Raises the session to aal2 after a second factor, as GoTrue's updateMFASessionAndClaims:
 * the method joins the session's AMR (replacing an older entry of the same method), the
 * session's live refresh tokens are retired so the aal1 ones cannot be used any more, and
 * the user's other aal1 sessions are signed out, since they never passed the second factor.
 * Returns the updated session and the refresh token the new one descends from.
 */
export async function stepUpSession(
  trx: Executor,
  session: SessionRow,
  factor: { id: string; factor_type: "totp" | "phone" },
): Promise<{ session: SessionRow; parentHash: string | null }> {
  const method = amrMethod(factor.factor_type);
  const amr: AmrEntry[] = [
    ...session.amr.filter((entry) => entry.method !== method),
    { method, timestamp: Math.floor(Date.now() / 1000) },
  ];
  const { rows } = await sql<SessionRow>`
    update auth.sessions set aal = 'aal2', factor_id = ${factor.id}, amr = ${JSON.stringify(amr)}::jsonb, updated_at = now()
    where id = ${session.id}
    returning *`.execute(trx);
  const retired = await sql<{ id: string; token_hash: string }>`
    update auth.refresh_tokens set revoked = true, updated_at = now()
    where session_id = ${session.id} and not revoked
    returning id, token_hash`.execute(trx);
  const parent = retired.rows.sort((a, b) => Number(b.id) - Number(a.id))[0];
  await sql`delete from auth.sessions where user_id = ${session.user_id} and aal = 'aal1' and id <> ${session.id}`.execute(trx);
  return { session: rows[0] as SessionRow, parentHash: parent?.token_hash ?? null };
}

/**
 * After a factor is removed, sessions that reached aal2 with it fall back to aal1 and lose its
 * AMR entry (GoTrue's DowngradeSessionsToAAL1); their current access tokens keep their claims
 * until they expire, the next refresh reflects the change.
 */
export async function downgradeSessionsOfFactor(
  trx: Executor,
  factor: { id: string; user_id: string; factor_type: "totp" | "phone" },
): Promise<void> {
  await sql`
    update auth.sessions
    set aal = 'aal1', factor_id = null, updated_at = now(),
        amr = coalesce((select jsonb_agg(e) from jsonb_array_elements(amr) e
                        where e ->> 'method' <> ${amrMethod(factor.factor_type)}), '[]'::jsonb)
    where user_id = ${factor.user_id} and factor_id = ${factor.id}`.execute(trx);
}
