import bcrypt from "bcryptjs";
import { errors } from "./errors.server.ts";

/** bcrypt cost 10, as GoTrue uses. */
export const BCRYPT_COST = 10;
export const MIN_PASSWORD_LENGTH = 8;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  // Compare against a fixed hash when the user has none, so timing does not reveal which emails exist.
  return bcrypt.compare(password, hash ?? DUMMY_HASH);
}

const DUMMY_HASH = "$2b$10$CwTycUXWue0Thq9StjUM0uJ8.JX6Y7VYxzvNmHxz0rJdB4KQ7kS3e";

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
