import { sql } from "kysely";
import { mergeUserMetadata, requireUser, setPasswordHash, setPendingEmail } from "./accounts.server.ts";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import type { SignedInCaller } from "./bearer.server.ts";
import { requireEmail } from "./email-address.server.ts";
import { sendLinkEmail } from "./email-links.server.ts";
import { coreErrors, errors } from "./errors.server.ts";
import { enforceEmailSendLimits } from "./limits.server.ts";
import { clearOneTimeTokens } from "./one-time-tokens.server.ts";
import { assertStrongPassword, hashPassword, verifyPassword } from "./passwords.server.ts";
import { readPkceChallenge } from "./pkce-params.server.ts";
import { requireReauthentication } from "./reauthenticate.server.ts";
import { resolveRedirect } from "./redirects.server.ts";
import { localeFor, type RequestMeta } from "./request-meta.server.ts";
import { findUserByEmail, normalizeEmail, userJson } from "./users.server.ts";

export interface UserUpdateInput {
  email?: string | null;
  password?: string | null;
  nonce?: string | null;
  data?: Record<string, unknown> | null;
  phone?: string | null;
  appMetadata?: Record<string, unknown> | null;
  codeChallenge?: string | null;
  codeChallengeMethod?: string | null;
}

/**
 * PUT /user, in GoTrue's order: every check first (policy, MFA level, address taken, same password,
 * reauthentication), then the changes. A new password signs out the user's other sessions and voids
 * outstanding links and codes; a new email applies only when the link sent to it is opened.
 */
export async function updateUser(
  auth: AuthRuntime,
  meta: RequestMeta,
  caller: SignedInCaller,
  input: UserUpdateInput,
): Promise<Record<string, unknown>> {
  const { user, session } = caller;
  if (input.appMetadata) throw coreErrors.appMetadataNotAllowed();
  if (input.phone) throw coreErrors.phoneProviderDisabled();
  const requested = input.email ? requireEmail(input.email) : null;
  const newEmail = requested && requested !== normalizeEmail(user.email ?? "") ? requested : null;
  const password = input.password ?? null;
  if (password !== null) assertStrongPassword(password);
  const pkce = readPkceChallenge(input.codeChallenge, input.codeChallengeMethod);

  if ((password !== null || newEmail) && session.aal !== "aal2" && (await hasVerifiedFactor(auth, user.id))) {
    throw coreErrors.aal2RequiredForUpdate();
  }
  if (newEmail) {
    const holder = await findUserByEmail(auth.db.kysely, newEmail);
    if (holder && holder.id !== user.id) throw errors.emailExists();
    await enforceEmailSendLimits(auth, meta.ip, newEmail);
  }
  if (password !== null) {
    if (user.encrypted_password && (await verifyPassword(password, user.encrypted_password))) throw errors.samePassword();
    await requireReauthentication(auth, caller, input.nonce);
    await setPasswordHash(auth, user.id, await hashPassword(password));
    await clearOneTimeTokens(auth, user.id);
    await sql`delete from auth.sessions where user_id = ${user.id} and id <> ${session.id}`.execute(auth.db.kysely);
    await recordAuthEvent(auth, { action: "user_updated_password", actorId: user.id, ip: meta.ip });
  }
  if (input.data) await mergeUserMetadata(auth, user.id, input.data);
  if (newEmail) {
    await setPendingEmail(auth, user.id, newEmail);
    await sendLinkEmail(auth, {
      userId: user.id,
      type: "email_change",
      to: newEmail,
      redirectTo: resolveRedirect(auth.config, meta.redirectTo),
      pkce,
      locale: localeFor(meta, user, input.data),
    });
  }
  await recordAuthEvent(auth, {
    action: "user_modified",
    actorId: user.id,
    ip: meta.ip,
    payload: { password: password !== null, email_change_requested: newEmail !== null, metadata: Boolean(input.data) },
  });
  return userJson(auth.db, await requireUser(auth, user.id));
}

async function hasVerifiedFactor(auth: AuthRuntime, userId: string): Promise<boolean> {
  const { rows } = await sql`select 1 from auth.mfa_factors where user_id = ${userId} and status = 'verified' limit 1`.execute(
    auth.db.kysely,
  );
  return rows.length > 0;
}
