import { sql } from "kysely";
import { z } from "zod";
import type { AuthCall } from "../api/http.server.ts";
import { json, readBody } from "../api/http.server.ts";
import { recordAuthEvent } from "../audit.server.ts";
import { requireEmail } from "../email-address.server.ts";
import { sendLinkEmail } from "../email-links.server.ts";
import { errors } from "../errors.server.ts";
import { emailLocale } from "../mailer.server.ts";
import { resolveRedirect } from "../redirects.server.ts";
import { findUserByEmail, findUserById, userJson } from "../users.server.ts";
import { insertUser } from "./users.server.ts";

const InviteBody = z.object({
  email: z.string().nullish(),
  data: z.record(z.string(), z.unknown()).nullish(),
});

/**
 * POST /invite?redirect_to= (supabase-js `auth.admin.inviteUserByEmail`): creates the user, or
 * reuses one who never confirmed, and emails a single-use link (and code) for /verify type
 * invite; only the newest invitation works.
 */
export async function inviteUser(call: AuthCall): Promise<Response> {
  const body = await readBody(call, InviteBody);
  const email = requireEmail(body.email);
  const db = call.auth.db.kysely;
  let user = await findUserByEmail(db, email);
  if (user && (user.email_confirmed_at || user.phone_confirmed_at)) throw errors.emailExists();
  user ??= await db.transaction().execute((trx) =>
    insertUser(trx, {
      email,
      phone: null,
      passwordHash: null,
      emailConfirmed: false,
      phoneConfirmed: false,
      userMetadata: body.data ?? {},
      appMetadata: null,
      role: null,
      bannedUntil: null,
    }),
  );
  await sql`update auth.users set invited_at = now(), updated_at = now() where id = ${user.id}`.execute(db);
  await sendLinkEmail(call.auth, {
    userId: user.id,
    type: "invite",
    to: email,
    redirectTo: resolveRedirect(call.auth.config, call.url.searchParams.get("redirect_to")),
    pkce: null,
    locale: emailLocale(user.raw_user_meta_data.locale, call.request.headers.get("accept-language")),
  });
  await recordAuthEvent(call.auth, {
    action: "user_invited",
    ip: call.ip,
    payload: { user_id: user.id, user_email: email, by: "service_role" },
  });
  return json(await userJson(call.auth.db, (await findUserById(db, user.id)) ?? user));
}
