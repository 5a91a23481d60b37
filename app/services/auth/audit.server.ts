import { sql } from "kysely";
import type { AuthRuntime } from "./auth-runtime.server.ts";

/** GoTrue's audit actions, plus Murmur's for rate limiting and refresh-token reuse. */
export type AuthAuditAction =
  | "user_signedup"
  | "user_invited"
  | "user_confirmation_requested"
  | "user_recovery_requested"
  | "user_reauthenticate_requested"
  | "user_updated_password"
  | "user_modified"
  | "user_deleted"
  | "login"
  | "logout"
  | "token_refreshed"
  | "token_revoked"
  | "refresh_token_reused"
  | "magiclink_requested"
  | "verification_succeeded"
  | "verification_failed"
  | "mfa_factor_enrolled"
  | "mfa_challenge_created"
  | "mfa_verified"
  | "mfa_verification_failed"
  | "mfa_factor_deleted"
  | "rate_limited"
  | "user_repeated_signup";

/** Every auth event lands in auth.audit_log_entries (never the password, token or code). */
export async function recordAuthEvent(
  auth: AuthRuntime,
  event: { action: AuthAuditAction; actorId?: string | null; ip?: string; payload?: Record<string, unknown> },
): Promise<void> {
  await sql`insert into auth.audit_log_entries (actor_id, action, payload, ip)
            values (${event.actorId ?? null}, ${event.action}, ${JSON.stringify(event.payload ?? {})}::jsonb, ${event.ip ?? null})`.execute(
    auth.db.kysely,
  );
}
