import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { requireEmail } from "./email-address.server.ts";
import { sendLinkEmail } from "./email-links.server.ts";
import { errors } from "./errors.server.ts";
import { enforceEmailSendLimits } from "./limits.server.ts";
import { readPkceChallenge } from "./pkce-params.server.ts";
import { resolveRedirect } from "./redirects.server.ts";
import { localeFor, type RequestMeta } from "./request-meta.server.ts";
import { findUserByEmail } from "./users.server.ts";

/** POST /recover: the same empty answer for every valid address; only an account gets the email. */
export async function requestRecovery(
  auth: AuthRuntime,
  meta: RequestMeta,
  input: { email?: string | null; codeChallenge?: string | null; codeChallengeMethod?: string | null },
): Promise<Record<string, never>> {
  if (!input.email) throw errors.validation("Password recovery requires an email");
  const email = requireEmail(input.email);
  const pkce = readPkceChallenge(input.codeChallenge, input.codeChallengeMethod);
  await enforceEmailSendLimits(auth, meta.ip, email);
  const user = await findUserByEmail(auth.db.kysely, email);
  if (!user) return {};
  await recordAuthEvent(auth, { action: "user_recovery_requested", actorId: user.id, ip: meta.ip });
  await sendLinkEmail(auth, {
    userId: user.id,
    type: "recovery",
    to: user.email ?? email,
    redirectTo: resolveRedirect(auth.config, meta.redirectTo),
    pkce,
    locale: localeFor(meta, user),
  });
  return {};
}
