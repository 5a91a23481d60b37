import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { assertStrongPassword, hashPassword, passwordProblems, verifyPassword } from "#app/services/auth/passwords.server.ts";

describe("password hashing", () => {
  it("hashes with argon2id in PHC format, salted", async () => {
    const a = await hashPassword("Correct-Horse-9");
    const b = await hashPassword("Correct-Horse-9");
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("Correct-Horse-9", a)).toBe(true);
    expect(await verifyPassword("Correct-Horse-8", a)).toBe(false);
  });

  it("still accepts bcrypt hashes (GoTrue, imported Supabase users)", async () => {
    const legacy = await bcrypt.hash("Legacy-Pass-1", 10);
    expect(await verifyPassword("Legacy-Pass-1", legacy)).toBe(true);
    expect(await verifyPassword("legacy-pass-1", legacy)).toBe(false);
  });

  it("never matches without a stored hash, or with a malformed one", async () => {
    expect(await verifyPassword("anything", null)).toBe(false);
    expect(await verifyPassword("anything", "$argon2id$v=19$m=1,t=1,p=1$!!$??")).toBe(false);
    expect(await verifyPassword("anything", "plain-text")).toBe(false);
  });
});

describe("password policy", () => {
  it("reports GoTrue's reasons", () => {
    expect(passwordProblems("short")).toEqual(["length", "characters"]);
    expect(passwordProblems("longenough")).toEqual(["characters"]);
    expect(passwordProblems("Long-Enough-1")).toEqual([]);
    expect(() => assertStrongPassword("weakpassword")).toThrow(/at least one character/);
  });
});
