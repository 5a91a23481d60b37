import { errors } from "./errors.server.ts";
import { normalizeEmail } from "./users.server.ts";

// The format check GoTrue uses (badoux/checkmail).
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** A well-formed address, lower-cased; GoTrue's wording for a missing or over-long one. */
export function requireEmail(raw: string | null | undefined): string {
  if (!raw) throw errors.validation("An email address is required");
  if (raw.length > 255) throw errors.validation("An email address is too long");
  const email = normalizeEmail(raw);
  if (!EMAIL.test(email)) throw errors.invalidEmail(raw);
  return email;
}
