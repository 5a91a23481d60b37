// One-time codes (the 6 digits in an email or SMS) are stored as an HMAC keyed by the deployment's
// secret key, not a plain hash: a million codes are hashed in a blink, so a leaked table would
// give every pending code back; without the key outside the database it gives nothing.
import { createHmac } from "node:crypto";
import { allKeys, deriveKey, type SecretKey, type SecretKeys } from "#app/services/secrets/secret-keys.server.ts";

export function codeHash(key: SecretKey, code: string): string {
  return createHmac("sha256", deriveKey(key, "one-time-code")).update(code).digest("hex");
}

/** What a code may be stored as: under the current key, or an older one during a rotation. */
export function codeHashes(keys: SecretKeys, code: string): string[] {
  return allKeys(keys).map((key) => codeHash(key, code));
}
