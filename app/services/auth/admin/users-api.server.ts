import { sql } from "kysely";
import { z } from "zod";
import type { AuthCall } from "../api/http.server.ts";
import { json, readBody } from "../api/http.server.ts";
import { recordAuthEvent } from "../audit.server.ts";
import { requireEmail } from "../email-address.server.ts";
import { adminErrors } from "../errors.server.ts";
import { hashPassword } from "../passwords.server.ts";
import { type UserRow, userJson } from "../users.server.ts";
import { AdminUserBody, checkedPassword, userFromPath } from "./params.server.ts";
import { insertUser, type UserChanges, updateUser } from "./users.server.ts";
import { banUntil, validPhone } from "./validate.server.ts";

/** POST /admin/users (supabase-js `auth.admin.createUser`). No email is sent. */
export async function createUser(call: AuthCall): Promise<Response> {
  const body = await readBody(call, AdminUserBody);
  if (!body.email && !body.phone) throw adminErrors.emailOrPhoneRequired();
  const email = body.email ? requireEmail(body.email) : null;
  const phone = body.phone ? validPhone(body.phone) : null;
  const passwordHash = body.password ? await hashPassword(checkedPassword(body.password)) : null;
  const bannedUntil = body.ban_duration ? banUntil(body.ban_duration) : null;
  const db = call.auth.db.kysely;
  const user = await db.transaction().execute((trx) =>
    insertUser(trx, {
      email,
      phone,
      passwordHash,
      emailConfirmed: body.email_confirm ?? false,
      phoneConfirmed: body.phone_confirm ?? false,
      userMetadata: body.user_metadata ?? {},
      appMetadata: body.app_metadata ?? null,
      role: body.role ?? null,
      bannedUntil,
    }),
  );
  await audit(call, "user_signedup", user);
  return json(await userJson(call.auth.db, user));
}

/** GET /admin/users/:user_id */
export async function getUser(call: AuthCall): Promise<Response> {
  return json(await userJson(call.auth.db, await userFromPath(call)));
}

/** PUT /admin/users/:user_id: email, phone, password, metadata, role, confirmation and ban. */
export async function updateUserById(call: AuthCall): Promise<Response> {
  const user = await userFromPath(call);
  const body = await readBody(call, AdminUserBody);
  const changes: UserChanges = {
    email: body.email ? requireEmail(body.email) : undefined,
    phone: body.phone ? validPhone(body.phone) : undefined,
    passwordHash: body.password ? await hashPassword(checkedPassword(body.password)) : undefined,
    emailConfirm: body.email_confirm ?? undefined,
    phoneConfirm: body.phone_confirm ?? undefined,
    role: body.role ?? undefined,
    userMetadata: body.user_metadata,
    appMetadata: body.app_metadata,
    bannedUntil: body.ban_duration ? banUntil(body.ban_duration) : undefined,
  };
  const updated = await call.auth.db.kysely.transaction().execute((trx) => updateUser(trx, user, changes));
  await audit(call, "user_modified", updated);
  return json(await userJson(call.auth.db, updated));
}

// supabase-js sends `should_soft_delete`. Murmur always deletes for good: GoTrue's soft delete
// keeps an anonymised row for its own bookkeeping, which nothing in Murmur reads.
const DeleteBody = z.object({ should_soft_delete: z.boolean().nullish() });

/** DELETE /admin/users/:user_id: the user and, by cascade, their sessions, identities and factors. */
export async function deleteUser(call: AuthCall): Promise<Response> {
  const user = await userFromPath(call);
  await readBody(call, DeleteBody);
  await sql`delete from auth.users where id = ${user.id}`.execute(call.auth.db.kysely);
  await audit(call, "user_deleted", user);
  return json({});
}

function audit(call: AuthCall, action: "user_signedup" | "user_modified" | "user_deleted", user: UserRow): Promise<void> {
  return recordAuthEvent(call.auth, {
    action,
    ip: call.ip,
    payload: { user_id: user.id, user_email: user.email, user_phone: user.phone, by: "service_role" },
  });
}
