import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as orgsRoute from "#app/routes/resources/api-orgs.ts";
import { type AccessTokenClaims, signAccessToken } from "#app/services/auth/jwt.server.ts";
import { type ApiHarness, callRoute } from "#tests/setup/api.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";

// Issue 17: a bearer call's session, user and second-factor checks run as one query, and the
// token's signature verdict is remembered. Each check must still refuse on the very next call
// after the state changes — a remembered signature never stands in for a live session.
describeEachDatabase("API bearer checks", (target) => {
  let h: ApiHarness;

  beforeAll(async () => {
    const { openApiHarness } = await import("#tests/setup/api.ts");
    h = await openApiHarness(target);
  });

  afterAll(async () => {
    await h.close();
  });

  const list = (token: string) => callRoute(h, orgsRoute, { method: "GET", path: "/api/orgs", token });
  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as AccessTokenClaims;

  it("a token accepted (and remembered) stops working at once when its session is signed out", async () => {
    const user = await h.user();
    expect((await list(user.token)).status).toBe(200);
    expect((await list(user.token)).status).toBe(200);
    await sql`delete from auth.sessions where id = ${user.sessionId}`.execute(h.db.kysely);
    expect(await list(user.token)).toMatchObject({ status: 401, body: { code: "not_authenticated" } });
  });

  it("an aal1 token is refused once its user has a verified factor; an aal2 token of the same session is not", async () => {
    const user = await h.user();
    expect((await list(user.token)).status).toBe(200);
    await sql`insert into auth.mfa_factors (user_id, friendly_name, factor_type, status)
              values (${user.id}, 'phone app', 'totp', 'verified')`.execute(h.db.kysely);
    expect(await list(user.token)).toMatchObject({ status: 401, body: { code: "not_authenticated" } });
    const claims = claimsOf(user.token);
    const aal2 = await signAccessToken(h.auth.keys, { ...claims, aal: "aal2" });
    expect((await list(aal2)).status).toBe(200);
  });

  it("an unverified factor does not count", async () => {
    const user = await h.user();
    await sql`insert into auth.mfa_factors (user_id, friendly_name, factor_type)
              values (${user.id}, 'half enrolled', 'totp')`.execute(h.db.kysely);
    expect((await list(user.token)).status).toBe(200);
  });

  it("a token whose session belongs to another user, or whose user is gone, is refused", async () => {
    const a = await h.user();
    const b = await h.user();
    const claims = claimsOf(a.token);
    const crossed = await signAccessToken(h.auth.keys, { ...claims, session_id: b.sessionId });
    expect(await list(crossed)).toMatchObject({ status: 401, body: { code: "not_authenticated" } });
    expect((await list(b.token)).status).toBe(200);
    await sql`delete from auth.users where id = ${b.id}`.execute(h.db.kysely);
    expect(await list(b.token)).toMatchObject({ status: 401, body: { code: "not_authenticated" } });
  });
});
