import type { AuthCall } from "../api/http.server.ts";
import { json } from "../api/http.server.ts";
import { recordAuthEvent } from "../audit.server.ts";
import { adminErrors } from "../errors.server.ts";
import { deleteFactor, type FactorRecord, findOwnFactor, listFactors } from "../mfa/factors.server.ts";
import { downgradeSessionsOfFactor } from "../mfa/session-aal.server.ts";
import { isUuid } from "../uuid.server.ts";
import { userFromPath } from "./params.server.ts";

/** A factor as GoTrue's admin API shows it: never the secret. */
function factorJson(f: FactorRecord) {
  return {
    id: f.id,
    friendly_name: f.friendly_name ?? undefined,
    factor_type: f.factor_type,
    status: f.status,
    phone: f.phone ?? undefined,
    created_at: new Date(f.created_at).toISOString(),
  };
}

/** GET /admin/users/:user_id/factors (supabase-js `auth.admin.mfa.listFactors`). */
export async function listUserFactors(call: AuthCall): Promise<Response> {
  const user = await userFromPath(call);
  return json((await listFactors(call.auth.db.kysely, user.id)).map(factorJson));
}

/** DELETE /admin/users/:user_id/factors/:factor_id: for a user who lost their device; no aal2 needed. */
export async function deleteUserFactor(call: AuthCall): Promise<Response> {
  const user = await userFromPath(call);
  if (!isUuid(call.params.factor_id)) throw adminErrors.factorIdNotUuid();
  const db = call.auth.db.kysely;
  const factor = await findOwnFactor(db, user.id, call.params.factor_id);
  await db.transaction().execute(async (trx) => {
    await deleteFactor(trx, factor.id);
    await downgradeSessionsOfFactor(trx, factor);
  });
  await recordAuthEvent(call.auth, {
    action: "mfa_factor_deleted",
    ip: call.ip,
    payload: { user_id: user.id, factor_id: factor.id, by: "service_role" },
  });
  return json(factorJson(factor));
}
