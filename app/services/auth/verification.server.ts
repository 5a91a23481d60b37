import { applyEmailChange, confirmEmail, isBanned, isEmailConfirmed, setPasswordHash } from "./accounts.server.ts";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { coreErrors, errors } from "./errors.server.ts";
import type { OneTimeTokenRow, OneTimeTokenType } from "./one-time-tokens.server.ts";
import type { RequestMeta } from "./request-meta.server.ts";
import { findUserById, type UserRow } from "./users.server.ts";

/**
 * Which stored tokens a /verify `type` may redeem. As in GoTrue, sign-up and invite share one kind
 * of token, and `email` (what supabase-js suggests for typed codes) covers sign-up, invite and magic link.
 */
const TOKEN_TYPES: Record<string, readonly OneTimeTokenType[]> = {
  signup: ["confirmation", "invite"],
  invite: ["confirmation", "invite"],
  magiclink: ["magiclink"],
  recovery: ["recovery"],
  email_change: ["email_change"],
  email: ["confirmation", "invite", "magiclink"],
};

export function tokenTypesFor(type: string | null | undefined): readonly OneTimeTokenType[] {
  if (!type) throw errors.validation("Verify requires a verification type");
  if (type === "sms" || type === "phone_change") throw coreErrors.phoneProviderDisabled();
  const types = TOKEN_TYPES[type];
  if (!types) throw errors.validation("Unsupported verification type");
  return types;
}

export interface Verified {
  user: UserRow;
  /** The amr method of a session started directly (implicit link or typed code). */
  sessionMethod: string;
  /** GoTrue's authentication method for a PKCE flow state, which becomes the amr method on exchange. */
  flowMethod: string;
}

/**
 * Carries out what a redeemed token proves: the address is confirmed (sign-up, invite, and the
 * first magic link or recovery link), or the pending email change applies. A recovery sign-in is
 * marked with amr method "recovery", which lets that session set a new password without a nonce.
 */
export async function applyVerification(auth: AuthRuntime, meta: RequestMeta, token: OneTimeTokenRow): Promise<Verified> {
  const found = await findUserById(auth.db.kysely, token.user_id);
  if (!found) throw errors.otpExpired();
  if (isBanned(found)) throw coreErrors.userBanned(403);
  const event = { actorId: found.id, ip: meta.ip, payload: { provider: "email", type: token.token_type } };
  switch (token.token_type) {
    case "confirmation":
    case "invite": {
      // The sign-up that sent this link chose the password; an earlier sign-up's (perhaps someone
      // else's, with this address) is replaced. A link without one (invites) keeps what is there.
      if (token.password_hash) await setPasswordHash(auth, found.id, token.password_hash);
      const user = await confirmEmail(auth, found.id);
      await recordAuthEvent(auth, { action: "user_signedup", ...event });
      return { user, sessionMethod: "otp", flowMethod: token.token_type === "invite" ? "invite" : "email/signup" };
    }
    case "magiclink":
    case "recovery": {
      const firstUse = !isEmailConfirmed(found);
      // An unconfirmed account's password was set by a sign-up nobody has proved: whoever owns the
      // address is now signing in, so that password goes (they set their own; recovery asks for one).
      if (firstUse) await setPasswordHash(auth, found.id, null);
      const user = firstUse ? await confirmEmail(auth, found.id) : found;
      await recordAuthEvent(auth, { action: firstUse ? "user_signedup" : "login", ...event });
      const method = token.token_type === "recovery" ? "recovery" : "otp";
      return { user, sessionMethod: method, flowMethod: token.token_type };
    }
    case "email_change": {
      // A change cancelled or replaced since the email was sent no longer applies.
      if (found.email_change !== token.relates_to) throw errors.otpExpired();
      const user = await applyEmailChange(auth, found.id, token.relates_to);
      await recordAuthEvent(auth, { action: "user_modified", ...event, payload: { ...event.payload, email_changed: true } });
      return { user, sessionMethod: "otp", flowMethod: "email_change" };
    }
    default:
      throw errors.otpExpired();
  }
}
