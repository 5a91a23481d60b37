import { createElement } from "react";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { OrgRole } from "#app/db/schema.ts";
import { resources } from "#app/i18n/resources.server.ts";
import * as organizationPage from "#app/routes/app/settings/organization.tsx";
import { renderAt, textOf } from "#tests/billing/render.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, pageContextIn, type VisitHarness } from "#tests/visits/harness.ts";

// Issue 27 "Checks before signing" on Settings → Organisation, without JavaScript: the owner ticks
// which checks only advise (a form post, then a redirect); other roles neither see the form nor may
// post it; the change is audited as PUT /api/orgs/:id/note-checks is (org.updated).
describeEachDatabase("Settings → Organisation: checks before signing", (target) => {
  let h: VisitHarness;
  beforeAll(async () => {
    h = await openVisitHarness(target);
  }, 240_000);
  afterAll(async () => {
    await h.close();
  });

  async function page(role: OrgRole, path: string, form?: [string, string][]) {
    const user = h.a.users[role];
    const context = pageContextIn(h, h.a.orgId, { id: user.id, email: user.email }, role);
    const request = form
      ? new Request(`${TEST_SITE_URL}${path}`, { method: "POST", body: new URLSearchParams(form) })
      : new Request(`${TEST_SITE_URL}${path}`);
    try {
      const handler = form ? organizationPage.action : organizationPage.loader;
      // biome-ignore lint/suspicious/noExplicitAny: loader data and action results are read field by field.
      const result: any = await handler({ request, context, params: {} } as never);
      return result?.type === "DataWithResponseInit" ? { status: result.init?.status ?? 200, ...result.data } : result;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }
  const render = (path: string, loaderData: unknown, actionData?: unknown) =>
    renderAt(path, createElement(organizationPage.default, { loaderData, actionData } as never));
  const audits = async () =>
    h.db.kysely
      .selectFrom("audit_log")
      .select(["action", "details"])
      .where("org_id", "=", h.a.orgId)
      .where("action", "=", "org.updated")
      .execute();

  it("the owner makes omissions advisory with a plain post; the page says what always gates", async () => {
    const before = await page("owner", "/fr/settings/organization");
    expect(before.checkSettings).toEqual({ advisory: [], saved: false });
    const html = await render("/fr/settings/organization", before);
    expect(html).toContain('data-testid="check-settings"');
    expect(textOf(html)).toContain(textOf(resources.fr.checks.settings.always));

    const audited = (await audits()).length;
    const res = (await page("owner", "/fr/settings/organization", [
      ["intent", "checks"],
      ["advisory", "omission"],
      ["advisory", "contradiction"],
    ])) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/fr/settings/organization?saved=checks#org-note-checks");

    const after = await page("owner", "/fr/settings/organization?saved=checks");
    // Contradictions cannot be made advisory: the unknown value is dropped.
    expect(after.checkSettings).toEqual({ advisory: ["omission"], saved: true });
    const saved = await render("/fr/settings/organization?saved=checks", after);
    expect(saved).toMatch(/data-testid="check-settings-omission"[^>]*checked|checked[^>]*data-testid="check-settings-omission"/);
    expect(textOf(saved)).toContain(resources.fr.checks.settings.saved);
    const rows = await audits();
    expect(rows.length).toBe(audited + 1);
    expect(rows.at(-1)?.details).toMatchObject({ changes: { advisory_checks: { from: [], to: ["omission"] } } });

    // Unticking everything gates every kind again.
    await page("owner", "/settings/organization", [["intent", "checks"]]);
    expect((await page("owner", "/settings/organization")).checkSettings.advisory).toEqual([]);
  });

  it("a clinician neither sees the form nor may post it", async () => {
    const data = await page("clinician", "/settings/organization");
    expect(data.checkSettings).toBeNull();
    expect(await render("/settings/organization", data)).not.toContain('data-testid="check-settings"');
    const refused = await page("clinician", "/settings/organization", [
      ["intent", "checks"],
      ["advisory", "low_confidence"],
    ]);
    expect(refused).toMatchObject({ status: 403, intent: "checks" });
    expect((await page("owner", "/settings/organization")).checkSettings.advisory).toEqual([]);
  });
});
