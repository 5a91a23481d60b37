import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { JWT_EXPIRED, verifyJwt } from "#app/services/auth/jwt.server.ts";
import type { AuthKeys } from "#app/services/auth/keys.server.ts";

// Issue 17: verifyJwt remembers a verified token until it expires. The cache must never widen
// what is accepted: expiry is re-checked on every call, the issuer must match, another key set
// (rotation) verifies afresh, and a token that differs by one character is verified on its own.

const ISSUER = "http://127.0.0.1/auth/v1";

async function keySet(): Promise<AuthKeys> {
  const pair = await generateKeyPair("ES256", { extractable: true });
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "k", alg: "ES256" };
  return { kid: "k", privateKey: pair.privateKey, publicJwk, anonKey: "", serviceRoleKey: "", refreshTokenSecret: "" };
}

async function token(keys: AuthKeys, expInSeconds: number, issuer = ISSUER): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: "u1", role: "authenticated" })
    .setProtectedHeader({ alg: "ES256", kid: keys.kid, typ: "JWT" })
    .setIssuer(issuer)
    .setIssuedAt(now)
    .setExpirationTime(now + expInSeconds)
    .sign(keys.privateKey);
}

const code = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (e: { code?: string; message?: string }) => `${e.code}${e.message?.endsWith(JWT_EXPIRED) ? " (expired)" : ""}`,
  );

afterEach(() => {
  vi.useRealTimers();
});

describe("verifyJwt's cache of verified tokens", () => {
  it("answers a repeated token with the same claims, and a caller's changes do not leak into the next answer", async () => {
    const keys = await keySet();
    const t = await token(keys, 3600);
    const first = await verifyJwt(keys, t, ISSUER);
    first.role = "service_role";
    const second = await verifyJwt(keys, t, ISSUER);
    expect(second).toMatchObject({ sub: "u1", role: "authenticated", iss: ISSUER });
  });

  it("refuses a cached token once it has expired, with GoTrue's expired wording", async () => {
    const keys = await keySet();
    const t = await token(keys, 60);
    await expect(verifyJwt(keys, t, ISSUER)).resolves.toMatchObject({ sub: "u1" });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    expect(await code(verifyJwt(keys, t, ISSUER))).toBe("bad_jwt (expired)");
    expect(await code(verifyJwt(keys, t, ISSUER))).toBe("bad_jwt (expired)");
  });

  it("does not let a cached token pass for another issuer or another key set", async () => {
    const keys = await keySet();
    const t = await token(keys, 3600);
    await verifyJwt(keys, t, ISSUER);
    expect(await code(verifyJwt(keys, t, "http://elsewhere/auth/v1"))).toBe("bad_jwt");
    expect(await code(verifyJwt(await keySet(), t, ISSUER))).toBe("bad_jwt");
    // And the original still verifies.
    expect(await code(verifyJwt(keys, t, ISSUER))).toBe("accepted");
  });

  it("verifies a forged variant of a cached token on its own and refuses it", async () => {
    const keys = await keySet();
    const t = await token(keys, 3600);
    await verifyJwt(keys, t, ISSUER);
    const [header, , signature] = t.split(".");
    const payload = Buffer.from(JSON.stringify({ sub: "u2", role: "service_role", iss: ISSUER, exp: 9_999_999_999 })).toString(
      "base64url",
    );
    expect(await code(verifyJwt(keys, `${header}.${payload}.${signature}`, ISSUER))).toBe("bad_jwt");
    const last = signature?.at(-2) === "A" ? "B" : "A";
    expect(await code(verifyJwt(keys, `${t.slice(0, -2)}${last}${t.at(-1)}`, ISSUER))).toBe("bad_jwt");
  });

  it("never remembers a refused token: an expired one stays refused", async () => {
    const keys = await keySet();
    const t = await token(keys, -10);
    expect(await code(verifyJwt(keys, t, ISSUER))).toBe("bad_jwt (expired)");
    expect(await code(verifyJwt(keys, t, ISSUER))).toBe("bad_jwt (expired)");
  });
});
