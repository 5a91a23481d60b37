import { sql } from "kysely";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import type { SignedInCaller } from "./bearer.server.ts";
import { errors } from "./errors.server.ts";
import type { RequestMeta } from "./request-meta.server.ts";

export type LogoutScope = "global" | "local" | "others";

export function parseLogoutScope(raw: string | null): LogoutScope {
  if (raw === null || raw === "" || raw === "global") return "global";
  if (raw === "local" || raw === "others") return raw;
  throw errors.validation(`Unsupported logout scope "${raw}"`);
}

/**
 * POST /logout: ends this session (local), the user's other sessions (others) or all of them
 * (global). Deleting a session deletes its refresh tokens, and access tokens that name it stop
 * working at once because every authenticated call checks that the session still exists.
 */
export async function logOut(auth: AuthRuntime, meta: RequestMeta, caller: SignedInCaller, scope: LogoutScope): Promise<void> {
  const db = auth.db.kysely;
  const { user, session } = caller;
  await recordAuthEvent(auth, { action: "logout", actorId: user.id, ip: meta.ip, payload: { scope } });
  if (scope === "local") await sql`delete from auth.sessions where id = ${session.id}`.execute(db);
  else if (scope === "others") {
    await sql`delete from auth.sessions where user_id = ${user.id} and id <> ${session.id}`.execute(db);
  } else await sql`delete from auth.sessions where user_id = ${user.id}`.execute(db);
}
