import type { AuthCall } from "../api/http.server.ts";
import { json } from "../api/http.server.ts";
import { recordAuthEvent } from "../audit.server.ts";
import type { SignedInCaller } from "../bearer.server.ts";
import { mfaErrors } from "../errors.server.ts";
import { deleteFactor, findOwnFactor } from "./factors.server.ts";
import { downgradeSessionsOfFactor } from "./session-aal.server.ts";

/**
 * DELETE /factors/:id. Removing a verified factor takes an aal2 session, so a stolen password
 * alone cannot switch MFA off; an unfinished enrolment can be dropped from aal1.
 */
export async function unenrollFactor(call: AuthCall, caller: SignedInCaller): Promise<Response> {
  const db = call.auth.db.kysely;
  const factor = await findOwnFactor(db, caller.user.id, call.params.id ?? "");
  if (factor.status === "verified" && caller.session.aal !== "aal2") throw mfaErrors.aalRequiredToUnenroll();
  await db.transaction().execute(async (trx) => {
    await deleteFactor(trx, factor.id);
    await downgradeSessionsOfFactor(trx, factor);
  });
  await recordAuthEvent(call.auth, {
    action: "mfa_factor_deleted",
    actorId: caller.user.id,
    ip: call.ip,
    payload: { factor_id: factor.id, factor_status: factor.status, session_id: caller.session.id },
  });
  return json({ id: factor.id });
}
