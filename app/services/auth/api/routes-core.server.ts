import { z } from "zod";
import { isBanned } from "../accounts.server.ts";
import { requireSession, type SignedInCaller } from "../bearer.server.ts";
import { coreErrors, errors } from "../errors.server.ts";
import { configuredLimits, enforceLimit } from "../limits.server.ts";
import { logOut, parseLogoutScope } from "../logout.server.ts";
import { requestOtp } from "../magic-link.server.ts";
import { signInWithPassword } from "../password-grant.server.ts";
import { exchangeAuthCode } from "../pkce-grant.server.ts";
import { requestReauthentication } from "../reauthenticate.server.ts";
import { requestRecovery } from "../recover.server.ts";
import { refreshSession } from "../refresh.server.ts";
import type { RequestMeta } from "../request-meta.server.ts";
import { resendEmail } from "../resend.server.ts";
import { signUp } from "../signup.server.ts";
import { updateUser } from "../user-update.server.ts";
import { userJson } from "../users.server.ts";
import { verifyCode, verifyLink } from "../verify.server.ts";
import { type AuthCall, type AuthRoute, json, noContent, readBody } from "./http.server.ts";

// supabase-js sends null for absent optional fields (e.g. code_challenge outside PKCE).
const text = z.string().nullish();
const metadata = z.record(z.string(), z.unknown()).nullish();

const SignupSchema = z.object({
  email: text,
  phone: text,
  password: text,
  data: metadata,
  code_challenge: text,
  code_challenge_method: text,
});
const PasswordGrantSchema = z.object({ email: text, phone: text, password: text });
const RefreshGrantSchema = z.object({ refresh_token: text });
const PkceGrantSchema = z.object({ auth_code: text, code_verifier: text });
const IdTokenGrantSchema = z.object({ provider: text });
const OtpSchema = z.object({
  email: text,
  phone: text,
  create_user: z.boolean().nullish(),
  data: metadata,
  code_challenge: text,
  code_challenge_method: text,
});
const VerifySchema = z.object({ type: text, token: text, token_hash: text, email: text, phone: text });
const RecoverSchema = z.object({ email: text, code_challenge: text, code_challenge_method: text });
const ResendSchema = z.object({ type: text, email: text, phone: text, code_challenge: text, code_challenge_method: text });
const UserUpdateSchema = z.object({
  email: text,
  password: text,
  nonce: text,
  data: metadata,
  phone: text,
  app_metadata: metadata,
  code_challenge: text,
  code_challenge_method: text,
});

function metaOf(call: AuthCall): RequestMeta {
  return {
    ip: call.ip,
    userAgent: call.userAgent,
    acceptLanguage: call.request.headers.get("accept-language"),
    redirectTo: call.url.searchParams.get("redirect_to"),
  };
}

/** The bearer's user and live session; GoTrue also turns banned users away here. */
async function requireCaller(call: AuthCall): Promise<SignedInCaller> {
  const caller = await requireSession(call);
  if (isBanned(caller.user)) throw coreErrors.userBanned(403);
  return caller;
}

async function token(call: AuthCall): Promise<Response> {
  const meta = metaOf(call);
  const grant = call.url.searchParams.get("grant_type");
  if (grant !== "password" && grant !== "refresh_token" && grant !== "pkce" && grant !== "id_token") {
    throw coreErrors.unsupportedGrantType();
  }
  await enforceLimit(call.auth, configuredLimits(call.auth).tokenPerIp, meta.ip, meta.ip);
  if (grant === "password") {
    const body = await readBody(call, PasswordGrantSchema);
    return json(await signInWithPassword(call.auth, meta, body));
  }
  if (grant === "refresh_token") {
    const body = await readBody(call, RefreshGrantSchema);
    return json(await refreshSession(call.auth, meta, body.refresh_token));
  }
  if (grant === "pkce") {
    const body = await readBody(call, PkceGrantSchema);
    return json(await exchangeAuthCode(call.auth, meta, { authCode: body.auth_code, codeVerifier: body.code_verifier }));
  }
  // Murmur has no identity providers, so every OpenID Connect ID token is refused.
  const body = await readBody(call, IdTokenGrantSchema);
  throw errors.providerDisabled(body.provider ?? "unknown");
}

export const coreRoutes: AuthRoute[] = [
  {
    method: "POST",
    path: "/signup",
    handler: async (call) => {
      const body = await readBody(call, SignupSchema);
      const result = await signUp(call.auth, metaOf(call), {
        ...body,
        codeChallenge: body.code_challenge,
        codeChallengeMethod: body.code_challenge_method,
      });
      return json(result);
    },
  },
  { method: "POST", path: "/token", handler: token },
  {
    method: "POST",
    path: "/otp",
    handler: async (call) => {
      const body = await readBody(call, OtpSchema);
      const result = await requestOtp(call.auth, metaOf(call), {
        ...body,
        createUser: body.create_user,
        codeChallenge: body.code_challenge,
        codeChallengeMethod: body.code_challenge_method,
      });
      return json(result);
    },
  },
  {
    method: "GET",
    path: "/verify",
    handler: async (call) => {
      // Link checkers in mail clients probe with HEAD; only a real GET may use up the link.
      if (call.request.method === "HEAD") return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
      const params = call.url.searchParams;
      const location = await verifyLink(call.auth, metaOf(call), { token: params.get("token"), type: params.get("type") });
      return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
    },
  },
  {
    method: "POST",
    path: "/verify",
    handler: async (call) => {
      const body = await readBody(call, VerifySchema);
      return json(await verifyCode(call.auth, metaOf(call), { ...body, tokenHash: body.token_hash }));
    },
  },
  {
    method: "POST",
    path: "/recover",
    handler: async (call) => {
      const body = await readBody(call, RecoverSchema);
      const result = await requestRecovery(call.auth, metaOf(call), {
        email: body.email,
        codeChallenge: body.code_challenge,
        codeChallengeMethod: body.code_challenge_method,
      });
      return json(result);
    },
  },
  {
    method: "POST",
    path: "/resend",
    handler: async (call) => {
      const body = await readBody(call, ResendSchema);
      const result = await resendEmail(call.auth, metaOf(call), {
        ...body,
        codeChallenge: body.code_challenge,
        codeChallengeMethod: body.code_challenge_method,
      });
      return json(result);
    },
  },
  {
    method: "POST",
    path: "/logout",
    handler: async (call) => {
      const caller = await requireCaller(call);
      await logOut(call.auth, metaOf(call), caller, parseLogoutScope(call.url.searchParams.get("scope")));
      return noContent();
    },
  },
  {
    method: "GET",
    path: "/user",
    handler: async (call) => {
      const { user } = await requireCaller(call);
      return json(await userJson(call.auth.db, user));
    },
  },
  {
    method: "PUT",
    path: "/user",
    handler: async (call) => {
      const caller = await requireCaller(call);
      const body = await readBody(call, UserUpdateSchema);
      const result = await updateUser(call.auth, metaOf(call), caller, {
        ...body,
        appMetadata: body.app_metadata,
        codeChallenge: body.code_challenge,
        codeChallengeMethod: body.code_challenge_method,
      });
      return json(result);
    },
  },
  {
    method: "GET",
    path: "/reauthenticate",
    handler: async (call) => {
      const caller = await requireCaller(call);
      return json(await requestReauthentication(call.auth, metaOf(call), caller));
    },
  },
];
