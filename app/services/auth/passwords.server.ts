import { argon2, randomBytes, timingSafeEqual } from "node:crypto";
import bcrypt from "bcryptjs";
import { MIN_PASSWORD_LENGTH } from "#app/utils/password-policy.ts";
import { errors } from "./errors.server.ts";

export { MIN_PASSWORD_LENGTH };

/**
 * New passwords are hashed with argon2id (OWASP's parameters: 19 MiB, 2 passes), computed by Node's
 * crypto on the libuv thread pool so sign-ins do not stall other requests. bcrypt hashes (from GoTrue
 * or an imported Supabase database) are still accepted.
 */
const ARGON2 = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

function argon2id(
  password: string,
  salt: Buffer,
  params: { memory: number; passes: number; parallelism: number; tagLength: number },
) {
  return new Promise<Buffer>((resolve, reject) =>
    argon2("argon2id", { message: password, nonce: salt, ...params }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** PHC string: $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash> (unpadded base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await argon2id(password, salt, ARGON2);
  const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "");
  return `$argon2id$v=19$m=${ARGON2.memory},t=${ARGON2.passes},p=${ARGON2.parallelism}$${b64(salt)}$${b64(key)}`;
}

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  // Without a stored hash, check against a dummy one anyway: timing must not reveal which emails exist.
  const stored = hash ?? DUMMY_HASH;
  if (stored.startsWith("$2")) return bcrypt.compare(password, stored);
  const m = PHC.exec(stored);
  if (!m) return false;
  const expected = Buffer.from(m[5] as string, "base64");
  const key = await argon2id(password, Buffer.from(m[4] as string, "base64"), {
    memory: Number(m[1]),
    passes: Number(m[2]),
    parallelism: Number(m[3]),
    tagLength: expected.length,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

// An argon2id hash of a random password nobody knows, with the current parameters.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$bXVybXVyLWR1bW15LXNhbHQ$2m1Q0G3N0r2nZ7pQ2Zt1m1e2cQ8m9l1Y0d1b2c3d4e5";

/**
 * GoTrue's password policy with Murmur's settings: at least 8 characters, and lower-case,
 * upper-case, digit and symbol. Reasons use GoTrue's words ("length", "characters").
 */
export function passwordProblems(password: string): string[] {
  const reasons: string[] = [];
  if (password.length < MIN_PASSWORD_LENGTH) reasons.push("length");
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];
  if (!classes.every((re) => re.test(password))) reasons.push("characters");
  return reasons;
}

/** Throws GoTrue's 422 weak_password with its reasons when the password breaks the policy. */
export function assertStrongPassword(password: string): void {
  const reasons = passwordProblems(password);
  if (reasons.length === 0) return;
  const parts: string[] = [];
  if (reasons.includes("length")) parts.push(`Password should be at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (reasons.includes("characters")) {
    parts.push(
      "Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, ABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789, !@#$%^&*()_+-=[]{};'\\:\"|<>?,./`~.",
    );
  }
  throw errors.weakPassword(reasons, parts.join(" "));
}
