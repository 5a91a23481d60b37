import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";

/** An unguessable token for links and refresh tokens (base64url, 256 bits by default). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * The refresh token that replaces `parent` when it is rotated: unguessable without the server's
 * secret, and the same every time, so the server can find a session's current token again from
 * a token it rotated a moment ago while storing only hashes. Same length as randomToken(24).
 */
export function childRefreshToken(secret: string, parent: string): string {
  return createHmac("sha256", secret)
    .update(`murmur/refresh-token/child:${parent}`)
    .digest()
    .subarray(0, 24)
    .toString("base64url");
}

/** A numeric one-time code, e.g. the 6 digits in a sign-in email. */
export function randomDigits(length = 6): string {
  let out = "";
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

/** Tokens are stored only as this hash, so a database leak does not leak usable tokens. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** RFC 7636: does the verifier match the challenge saved when the flow started? */
export function pkceMatches(verifier: string, challenge: string, method: "s256" | "plain"): boolean {
  const computed = method === "plain" ? verifier : createHash("sha256").update(verifier).digest("base64url");
  return safeEqual(computed, challenge);
}
