import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { regionOfCountry } from "#app/components/org/browser-locale-fields.tsx";
import { action, loader } from "#app/routes/app/org-new.tsx";
import { type MemberOrg, orgContext } from "#app/services/org-context/current-org.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, type VisitHarness } from "./harness.ts";

// Issue 29 "Fixes": a new organisation takes its time zone and region from the browser, editable.
it("maps a browser's country to an organisation region", () => {
  expect(["US", "CA", "AU", "GB", "FR", "es", "DE", "JP", undefined].map(regionOfCountry)).toEqual([
    "us",
    "ca",
    "au",
    "uk",
    "eu",
    "eu",
    "eu",
    "other",
    "other",
  ]);
});

describeEachDatabase("/organizations/new with the browser's zone and region", (target) => {
  let h: VisitHarness;
  beforeAll(async () => {
    h = await openVisitHarness(target);
  });
  afterAll(async () => {
    await h.close();
  });

  function context() {
    const c = h.context();
    const org = {
      id: h.a.orgId,
      name: "A",
      slug: "a",
      kind: "practice",
      plan: "Clinic",
      pms: "none",
      timezone: "UTC",
      region: "us",
      trial_ends_at: null,
      role: "owner",
    } as const;
    c.set(orgContext, { user: h.a.users.owner, org, role: "owner", orgs: [org as MemberOrg], switchedFrom: null });
    return c;
  }
  async function post(fields: Record<string, string>) {
    const request = new Request("http://murmur.test/fr/organizations/new", { method: "POST", body: new URLSearchParams(fields) });
    try {
      const result = (await action({ request, context: context(), params: {} } as never)) as {
        data: unknown;
        init: { status: number };
      };
      return { status: result.init.status, data: result.data };
    } catch (thrown) {
      if (thrown instanceof Response) return { status: thrown.status, data: null };
      throw thrown;
    }
  }

  it("suggests the region of the Accept-Language before JavaScript refines it", async () => {
    const suggest = (lang: string) =>
      loader({
        request: new Request("http://murmur.test/organizations/new", { headers: { "accept-language": lang } }),
        context: context(),
        params: {},
      } as never);
    expect(await suggest("fr-FR,fr;q=0.9")).toEqual({ suggestedRegion: "eu" });
    expect(await suggest("en-GB")).toEqual({ suggestedRegion: "uk" });
    expect(await suggest("en-US")).toEqual({ suggestedRegion: "us" });
    expect(await suggest("")).toEqual({ suggestedRegion: "other" });
  });

  it("creates the organisation in the chosen zone and region; a zone or region outside the lists is 400", async () => {
    expect(await post({ name: "Cabinet Lyon", timezone: "Europe/Paris", region: "eu" })).toMatchObject({ status: 302 });
    const row = await sql<{ timezone: string; region: string }>`
      select timezone, region from public.organizations where name = 'Cabinet Lyon'`.execute(h.db.kysely);
    expect(row.rows).toEqual([{ timezone: "Europe/Paris", region: "eu" }]);
    expect(await post({ name: "Nowhere", timezone: "Mars/Olympus", region: "eu" })).toEqual({
      status: 400,
      data: { error: "invalid_timezone" },
    });
    expect(await post({ name: "Nowhere", timezone: "UTC", region: "atlantis" })).toEqual({
      status: 400,
      data: { error: "invalid_region" },
    });
  });
});
