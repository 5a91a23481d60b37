import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as personalRoute from "#app/routes/resources/api-orgs-personal.ts";
import { type ApiHarness, callRoute, openApiHarness } from "#tests/setup/api.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";

// Issue 25 probe: "personal-organisation names skip the name rules (control characters, > 200
// characters)". The name comes from the user's own full_name metadata, which the auth API keeps
// as sent; the organisation's name is one line of at most 200 characters like any other.
describeEachDatabase("personal organisation name rules", (target) => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await openApiHarness(target);
  });
  afterAll(async () => {
    await h.close();
  });

  const personalOrgName = async (fullName: string) => {
    const user = await h.user({ fullName });
    const res = await callRoute(h, personalRoute, { method: "POST", path: "/api/orgs/personal", token: user.token });
    expect(res.status).toBe(200);
    const id = (res.body as { id: string }).id;
    const { rows } = await sql<{ name: string }>`select name from public.organizations where id = ${id}`.execute(h.db.kysely);
    return rows[0]?.name ?? "";
  };

  it("turns control characters and line breaks into single spaces and keeps at most 200 characters", async () => {
    const name = await personalOrgName(`Dr Ana\r\nRuiz\u0007\u0085\u2028${"x".repeat(400)}`);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
    expect(name).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(name).toContain("Ana Ruiz ");
    expect([...name].length).toBeLessThanOrEqual(200);
    expect(name).toMatch(/practice|Ana/);
  });

  it("falls back to the email's name when the full name is nothing but control characters", async () => {
    const name = await personalOrgName("\u0001\n\t\u0002");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
    expect(name).not.toMatch(/[\u0000-\u001f]/);
    expect(name.trim().length).toBeGreaterThan(3);
  });
});
