import { sql } from "kysely";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { hashToken, pkceMatches, randomToken } from "./crypto.server.ts";
import { errors } from "./errors.server.ts";
import type { PkceChallenge } from "./pkce-params.server.ts";

/**
 * A PKCE authorization code, issued when an email link started with a code challenge is opened.
 * `authenticationMethod` becomes the session's amr method when the code is exchanged.
 */
export async function issueAuthCode(
  auth: AuthRuntime,
  input: { userId: string; pkce: PkceChallenge; authenticationMethod: string },
): Promise<string> {
  const code = randomToken();
  await sql`insert into auth.flow_state
              (user_id, auth_code_hash, code_challenge, code_challenge_method, authentication_method, expires_at)
            values (${input.userId}, ${hashToken(code)}, ${input.pkce.challenge}, ${input.pkce.method},
                    ${input.authenticationMethod}, now() + make_interval(secs => ${auth.config.flowStateExpirySeconds}))`.execute(
    auth.db.kysely,
  );
  return code;
}

interface FlowStateRow {
  user_id: string;
  code_challenge: string;
  code_challenge_method: "s256" | "plain";
  authentication_method: string;
  expires_at: Date;
}

/**
 * Exchanges an authorization code and its verifier. The code is used up by the attempt itself,
 * right or wrong, so a stolen code cannot be retried against guessed verifiers.
 */
export async function redeemAuthCode(
  auth: AuthRuntime,
  input: { authCode: string; codeVerifier: string },
): Promise<{ userId: string; authenticationMethod: string }> {
  const { rows } = await sql<FlowStateRow>`
    update auth.flow_state set used_at = now()
    where auth_code_hash = ${hashToken(input.authCode)} and used_at is null
    returning user_id, code_challenge, code_challenge_method, authentication_method, expires_at`.execute(auth.db.kysely);
  const flow = rows[0];
  if (!flow) throw errors.flowStateNotFound();
  if (new Date(flow.expires_at).getTime() <= Date.now()) throw errors.flowStateExpired();
  if (!pkceMatches(input.codeVerifier, flow.code_challenge, flow.code_challenge_method)) throw errors.badCodeVerifier();
  return { userId: flow.user_id, authenticationMethod: flow.authentication_method };
}
