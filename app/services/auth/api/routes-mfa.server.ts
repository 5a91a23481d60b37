import { isBanned } from "../accounts.server.ts";
import { requireSession, type SignedInCaller } from "../bearer.server.ts";
import { coreErrors } from "../errors.server.ts";
import { challengeFactor } from "../mfa/challenge.server.ts";
import { enrollFactor } from "../mfa/enroll.server.ts";
import { limitMfaByIp, limitMfaByUser } from "../mfa/limits.server.ts";
import { unenrollFactor } from "../mfa/unenroll.server.ts";
import { verifyFactor } from "../mfa/verify.server.ts";
import type { AuthCall, AuthHandler, AuthRoute } from "./http.server.ts";

/**
 * Every MFA call: rate-limited by IP before the token is checked, then by user; a banned user's
 * still-valid token is turned away, as on the core endpoints.
 */
function signedIn(handler: (call: AuthCall, caller: SignedInCaller) => Promise<Response>): AuthHandler {
  return async (call) => {
    await limitMfaByIp(call);
    const caller = await requireSession(call);
    if (isBanned(caller.user)) throw coreErrors.userBanned(403);
    await limitMfaByUser(call, caller.user.id);
    return handler(call, caller);
  };
}

/** GoTrue's MFA API as supabase-js `auth.mfa` calls it (factors come back in GET /user). */
export const mfaRoutes: AuthRoute[] = [
  { method: "POST", path: "/factors", handler: signedIn(enrollFactor) },
  { method: "POST", path: "/factors/:id/challenge", handler: signedIn(challengeFactor) },
  { method: "POST", path: "/factors/:id/verify", handler: signedIn(verifyFactor) },
  { method: "DELETE", path: "/factors/:id", handler: signedIn(unenrollFactor) },
];
