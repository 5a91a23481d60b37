import { deleteUserFactor, listUserFactors } from "../admin/factors-api.server.ts";
import { inviteUser } from "../admin/invite.server.ts";
import { listUsers } from "../admin/list-users.server.ts";
import { createUser, deleteUser, getUser, updateUserById } from "../admin/users-api.server.ts";
import { requireServiceRole } from "../bearer.server.ts";
import type { AuthHandler, AuthRoute } from "./http.server.ts";

/** Only the service-role key gets past this; the anon key and user tokens are 403 not_admin. */
function admin(handler: AuthHandler): AuthHandler {
  return async (call) => {
    await requireServiceRole(call);
    return handler(call);
  };
}

/** GoTrue's admin API as supabase-js `auth.admin` calls it. */
export const adminRoutes: AuthRoute[] = [
  { method: "GET", path: "/admin/users", handler: admin(listUsers) },
  { method: "POST", path: "/admin/users", handler: admin(createUser) },
  { method: "GET", path: "/admin/users/:user_id", handler: admin(getUser) },
  { method: "PUT", path: "/admin/users/:user_id", handler: admin(updateUserById) },
  { method: "DELETE", path: "/admin/users/:user_id", handler: admin(deleteUser) },
  { method: "GET", path: "/admin/users/:user_id/factors", handler: admin(listUserFactors) },
  { method: "DELETE", path: "/admin/users/:user_id/factors/:factor_id", handler: admin(deleteUserFactor) },
  { method: "POST", path: "/invite", handler: admin(inviteUser) },
];
