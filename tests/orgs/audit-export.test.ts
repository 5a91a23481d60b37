import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import type { OrgRole } from "#app/db/schema.ts";
import * as auditPage from "#app/routes/app/settings/audit.tsx";
import * as exportRoute from "#app/routes/resources/api-org-audit-export.ts";
import { orgContext } from "#app/services/org-context/current-org.ts";
import { AUDIT_EXPORT_PAGE } from "#app/services/orgs/audit-export.server.ts";
import { type ApiHarness, type ApiUser, openApiHarness, orgWithEveryRole } from "#tests/setup/api.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { responseOf } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrg } from "#tests/setup/orgs.ts";

// Issue 17 "an owner can export the audit log": GET /api/orgs/:id/audit-log/export with the audit
// tab's filters (days on the organisation's clock), CSV and JSON, owners only, streamed page by page,
// and the export itself in the trail. The clock is pinned for the file name and exported_at.

const NOW = new Date("2026-11-25T03:30:00Z"); // 24 November, 22:30 in New York.

describeEachDatabase("audit log export", (target) => {
  let h: ApiHarness;
  let org: { orgId: string; users: Record<OrgRole, ApiUser> };
  let outsider: ApiUser;
  let slug: string;
  const ids: Record<string, string> = {};

  async function plant(actorId: string | null, action: string, at: string, details: Record<string, unknown> = {}) {
    const { rows } = await sql<{ id: string }>`
      insert into public.audit_log (org_id, actor_id, action, entity, entity_id, at, ip, details)
      values (${org.orgId}, ${actorId}, ${action}, 'visit', 'v-1', ${at}::timestamptz, '203.0.113.7', ${JSON.stringify(details)}::jsonb)
      returning id::text as id`.execute(h.db.kysely);
    return rows[0]?.id ?? "";
  }

  beforeAll(async () => {
    h = await openApiHarness(target);
    org = await orgWithEveryRole(h, createOrg);
    outsider = await h.user();
    await createOrg(h.db, [{ userId: outsider.id, role: "owner" }]);
    await sql`update public.organizations set timezone = 'America/New_York' where id = ${org.orgId}`.execute(h.db.kysely);
    slug =
      (await sql<{ slug: string }>`select slug from public.organizations where id = ${org.orgId}`.execute(h.db.kysely)).rows[0]
        ?.slug ?? "";
    // 9 March 23:30 in New York is already the 10th in UTC; the 11th 03:59 UTC is still the 10th there.
    ids.lateOn9th = await plant(org.users.clinician.id, "visit.read", "2024-03-10T04:30:05Z", { patient_id: "p-1" });
    ids.on10th = await plant(org.users.owner.id, "note.read", "2024-03-10T15:00:00Z", { note: 'has "quotes", commas' });
    ids.lateOn10th = await plant(org.users.clinician.id, "visit.read", "2024-03-11T03:59:00Z", { patient_id: "p-2" });
    ids.formula = await plant(null, "=cmd|calc", "2024-03-12T12:00:00Z");
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  async function download(query: string, as: ApiUser = org.users.owner, orgId = org.orgId) {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const request = new Request(`${TEST_SITE_URL}/api/orgs/${orgId}/audit-log/export?${query}`, {
      headers: { authorization: `Bearer ${as.token}` },
    });
    const response = await responseOf(() =>
      exportRoute.loader({ request, context: h.context(), params: { id: orgId } } as never),
    );
    const chunks: string[] = [];
    if (response.body) {
      const decoder = new TextDecoder();
      for await (const chunk of response.body) chunks.push(decoder.decode(chunk, { stream: true }));
    }
    vi.useRealTimers();
    return { status: response.status, headers: response.headers, text: chunks.join(""), chunks: chunks.length };
  }

  /** A minimal CSV reader for the file's own quoting (fields with quotes, commas or line breaks). */
  function parseCsv(text: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let field = "";
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
        else if (c === '"') quoted = false;
        else field += c;
      } else if (c === '"') quoted = true;
      else if (c === ",") row.push(field), (field = "");
      else if (c === "\r" && text[i + 1] === "\n") {
        row.push(field), rows.push(row), (row = []), (field = ""), i++;
      } else field += c;
    }
    return rows;
  }

  it("CSV: the tab's day filters on the organisation's clock, newest first, local times, quoted and formula-safe", async () => {
    const file = await download("format=csv&from=2024-03-10&to=2024-03-10");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="audit-log-${slug}-2026-11-24.csv"`);
    expect(file.headers.get("cache-control")).toBe("no-store");
    const [head, ...rows] = parseCsv(file.text);
    expect(head).toEqual([
      "id",
      "at_utc",
      "at_local",
      "time_zone",
      "actor_id",
      "actor_email",
      "action",
      "entity",
      "entity_id",
      "patient_id",
      "ip",
      "details",
    ]);
    expect(rows.map((r) => r[0])).toEqual([ids.lateOn10th, ids.on10th]);
    expect(rows[0]).toEqual([
      ids.lateOn10th,
      "2024-03-11T03:59:00.000Z",
      "2024-03-10 23:59:00",
      "America/New_York",
      org.users.clinician.id,
      org.users.clinician.email,
      "visit.read",
      "visit",
      "v-1",
      "p-2",
      "203.0.113.7",
      '{"patient_id":"p-2"}',
    ]);
    expect(JSON.parse(rows[1]?.[11] ?? "")).toEqual({ note: 'has "quotes", commas' });
    const ninth = parseCsv((await download("format=csv&day=2024-03-09")).text).slice(1);
    expect(ninth.map((r) => [r[0], r[2]])).toEqual([[ids.lateOn9th, "2024-03-09 23:30:05"]]);
    // A value a spreadsheet would run as a formula is written as text.
    const formula = parseCsv((await download("format=csv&from=2024-03-12&to=2024-03-12")).text).slice(1);
    expect(formula.map((r) => r[6])).toEqual(["'=cmd|calc"]);
  });

  it("JSON: the same entries with the filters, the zone and the pinned export time; filters by actor and action", async () => {
    const file = await download(`format=json&from=2024-03-09&to=2024-03-11&actor=${org.users.clinician.id}&action=visit.read`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="audit-log-${slug}-2026-11-24.json"`);
    const body = JSON.parse(file.text);
    expect(body).toMatchObject({
      organization_id: org.orgId,
      time_zone: "America/New_York",
      exported_at: NOW.toISOString(),
      filters: { actorId: org.users.clinician.id, action: "visit.read", from: "2024-03-09", to: "2024-03-11" },
    });
    expect(body.entries.map((e: { id: string }) => e.id)).toEqual([ids.lateOn10th, ids.lateOn9th]);
    expect(body.entries[1]).toMatchObject({ at: "2024-03-10T04:30:05.000Z", at_local: "2024-03-09 23:30:05", patient_id: "p-1" });
    const none = JSON.parse((await download("format=json&from=2024-03-13&to=2024-03-13")).text);
    expect(none.entries).toEqual([]);
  });

  it("streams a large log page by page without losing or repeating a row", async () => {
    const big = await createOrg(h.db, [{ userId: org.users.owner.id, role: "owner" }]);
    const count = 2 * AUDIT_EXPORT_PAGE + 345;
    await sql`
      insert into public.audit_log (org_id, actor_id, action, at)
      select ${big}, ${org.users.owner.id}, 'visit.read', timestamptz '2024-05-01 12:00Z' + (g / 3) * interval '1 second'
      from generate_series(1, ${count}) g`.execute(h.db.kysely);
    const file = await download("format=csv&to=2024-06-01", org.users.owner, big);
    expect(file.status).toBe(200);
    const rows = parseCsv(file.text).slice(1);
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((r) => r[0])).size).toBe(count);
    // Several reads of AUDIT_EXPORT_PAGE rows, each sent as it was read.
    expect(file.chunks).toBeGreaterThanOrEqual(3);
  });

  it("owners only: admins, clinicians and staff 403 forbidden_role, another tenant 404, bad filters 400; each export is audited", async () => {
    for (const role of ["admin", "clinician", "staff"] as const) {
      const refused = await download("format=csv", org.users[role]);
      expect(refused.status, role).toBe(403);
      expect(JSON.parse(refused.text)).toMatchObject({ code: "forbidden_role" });
    }
    expect((await download("format=csv", outsider)).status).toBe(404);
    const bad = async (query: string) => JSON.parse((await download(query)).text).code;
    expect(await bad("format=csv&from=2024-03-11&to=2024-03-10")).toBe("invalid_audit_filter");
    expect(await bad("format=csv&action=nope")).toBe("invalid_audit_filter");
    expect(await bad("format=xml")).toBe("validation_failed");
    const before = await sql<{
      n: number;
    }>`select count(*)::int as n from public.audit_log where org_id = ${org.orgId} and action = 'audit.exported'`.execute(
      h.db.kysely,
    );
    await download("format=json&action=visit.read");
    const { rows } = await sql<{ actor_id: string; details: Record<string, unknown> }>`
      select actor_id, details from public.audit_log where org_id = ${org.orgId} and action = 'audit.exported' order by id desc`.execute(
      h.db.kysely,
    );
    expect(rows).toHaveLength((before.rows[0]?.n ?? 0) + 1);
    expect(rows[0]).toEqual({ actor_id: org.users.owner.id, details: { format: "json", filters: { action: "visit.read" } } });
  });

  it("the audit tab offers the download to owners only", async () => {
    const load = async (role: OrgRole) => {
      const context = h.context();
      const user = org.users[role];
      const memberOrg = {
        id: org.orgId,
        name: "x",
        slug,
        kind: "practice",
        plan: "Clinic",
        pms: "none",
        timezone: "America/New_York",
        region: "us",
        trial_ends_at: null,
        role,
      } as const;
      context.set(orgContext, {
        user: { id: user.id, email: user.email },
        org: memberOrg,
        role,
        orgs: [memberOrg],
        switchedFrom: null,
      });
      return auditPage.loader({ request: new Request(`${TEST_SITE_URL}/settings/audit`), context, params: {} } as never);
    };
    expect((await load("owner")).exportOrgId).toBe(org.orgId);
    expect((await load("admin")).exportOrgId).toBeNull();
  });
});
