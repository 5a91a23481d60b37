import { isBanned } from "./accounts.server.ts";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { coreErrors, errors } from "./errors.server.ts";
import { redeemAuthCode } from "./flow-state.server.ts";
import type { RequestMeta } from "./request-meta.server.ts";
import { createSession, type SessionJson } from "./sessions.server.ts";
import { findUserById } from "./users.server.ts";

/** POST /token?grant_type=pkce: an authorization code from an email link, plus the client's verifier. */
export async function exchangeAuthCode(
  auth: AuthRuntime,
  meta: RequestMeta,
  input: { authCode?: string | null; codeVerifier?: string | null },
): Promise<SessionJson> {
  if (!input.authCode || !input.codeVerifier) {
    throw errors.validation("invalid request: both auth code and code verifier should be non-empty");
  }
  const flow = await redeemAuthCode(auth, { authCode: input.authCode, codeVerifier: input.codeVerifier });
  const user = await findUserById(auth.db.kysely, flow.userId);
  if (!user) throw errors.flowStateNotFound();
  if (isBanned(user)) throw coreErrors.userBanned();
  await recordAuthEvent(auth, {
    action: "login",
    actorId: user.id,
    ip: meta.ip,
    payload: { provider_type: flow.authenticationMethod },
  });
  return createSession(auth, user, { method: flow.authenticationMethod, ip: meta.ip, userAgent: meta.userAgent });
}
