import { z } from "zod";
import type { AuthCall } from "../api/http.server.ts";
import { adminErrors, errors } from "../errors.server.ts";
import { assertStrongPassword } from "../passwords.server.ts";
import { findUserById, type UserRow } from "../users.server.ts";
import { isUuid } from "../uuid.server.ts";

const Metadata = z.record(z.string(), z.unknown());

/** GoTrue's AdminUserParams, for both creating and updating a user. */
export const AdminUserBody = z.object({
  email: z.string().max(320).nullish(),
  phone: z.string().max(64).nullish(),
  password: z.string().max(1024).nullish(),
  email_confirm: z.boolean().nullish(),
  phone_confirm: z.boolean().nullish(),
  user_metadata: Metadata.nullish(),
  app_metadata: Metadata.nullish(),
  ban_duration: z.string().max(64).nullish(),
  // The role ends up in the JWT and in auth.role(); keep it to a plain identifier.
  role: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "role must be a lower-case identifier")
    .nullish(),
});

// GoTrue refuses passwords over 72 bytes (bcrypt would truncate them); kept for compatibility.
const BCRYPT_MAX_BYTES = 72;

/** The password policy, plus GoTrue's upper bound. */
export function checkedPassword(password: string): string {
  if (Buffer.byteLength(password) > BCRYPT_MAX_BYTES) {
    throw errors.validation(`Password cannot be longer than ${BCRYPT_MAX_BYTES} characters`);
  }
  assertStrongPassword(password);
  return password;
}

/** The user named by the `:user_id` path parameter. */
export async function userFromPath(call: AuthCall): Promise<UserRow> {
  const id = call.params.user_id ?? "";
  if (!isUuid(id)) throw adminErrors.userIdNotUuid();
  const user = await findUserById(call.auth.db.kysely, id);
  if (!user) throw errors.userNotFound();
  return user;
}
