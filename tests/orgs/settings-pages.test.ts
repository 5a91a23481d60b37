import { sql } from "kysely";
import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { resources } from "#app/i18n/resources.server.ts";
import { getInstance, i18nextMiddleware } from "#app/middleware/i18next.server.ts";
import { orgMiddleware } from "#app/middleware/org.server.ts";
import * as auditPage from "#app/routes/app/settings/audit.tsx";
import * as membersPage from "#app/routes/app/settings/members.tsx";
import * as organizationPage from "#app/routes/app/settings/organization.tsx";
import { userContext } from "#app/services/session/user-context.ts";
import { DEFAULT_ACCENT } from "#app/utils/accent.ts";
import { dayInZone } from "#app/utils/zoned-time.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { createTestContext } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser, createOrg } from "#tests/setup/orgs.ts";

// Issue 4 "Roles, members, invitations": Settings → Organisation, Members and Audit log, called the
// way React Router calls them — through the app layout's organisation middleware (cookie →
// membership → context), then the page's loader or action. Expectations follow docs/permissions.md.

const ROLES: OrgRole[] = ["owner", "admin", "clinician", "staff"];
const MANAGERS: OrgRole[] = ["owner", "admin"];

interface User {
  id: string;
  email: string;
}

interface PageResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: loader and action data of several pages, checked field by field.
  data: any;
  location: string | null;
  setCookie: string[];
}

interface PageModule {
  loader?: (args: never) => unknown;
  action?: (args: never) => unknown;
}

/** What a loader or action produced (returned or thrown): a Response, data() with a status, or plain data. */
async function settle(run: () => unknown): Promise<{ status: number; data: unknown; headers: Headers }> {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    value = thrown;
    if (!(thrown instanceof Response) && !isDataWithInit(thrown)) throw thrown;
  }
  if (value instanceof Response) return { status: value.status, data: null, headers: value.headers };
  if (isDataWithInit(value))
    return { status: value.init?.status ?? 200, data: value.data, headers: new Headers(value.init?.headers) };
  return { status: 200, data: value, headers: new Headers() };
}

function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

/** GET (loader) or POST (action) `path` as `user` whose murmur-org cookie names `orgId`. */
async function call(
  db: Database,
  mod: PageModule,
  user: User,
  orgId: string,
  path: string,
  form?: Record<string, string>,
): Promise<PageResult> {
  const context = createTestContext({ db });
  context.set(userContext, { id: user.id, email: user.email });
  const headers = { cookie: `murmur-org=${orgId}`, "user-agent": "vitest" };
  const request = form
    ? new Request(`${TEST_SITE_URL}${path}`, { method: "POST", headers, body: new URLSearchParams(form) })
    : new Request(`${TEST_SITE_URL}${path}`, { headers });
  const handler = form ? mod.action : mod.loader;
  if (!handler) throw new Error(`no ${form ? "action" : "loader"}`);
  let inner: Awaited<ReturnType<typeof settle>> | undefined;
  const outer = await settle(() =>
    orgMiddleware({ request, context, params: {} } as never, async () => {
      inner = await settle(() => handler({ request, context, params: {} } as never));
      return new Response(null, { status: inner.status, headers: inner.headers });
    }),
  );
  return {
    status: outer.status,
    data: inner?.data ?? outer.data,
    location: outer.headers.get("location"),
    setCookie: outer.headers.getSetCookie(),
  };
}

/** Renders a page component in `path`'s language the way the server does. */
async function render(path: string, element: ReactElement): Promise<string> {
  const context = createTestContext();
  let html = "";
  await i18nextMiddleware({ request: new Request(`${TEST_SITE_URL}${path}`), context, params: {} } as never, async () => {
    html = renderToString(
      createElement(
        I18nextProvider,
        { i18n: getInstance(context) },
        createElement(createRoutesStub([{ path: "*", Component: () => element }]), { initialEntries: [path] }),
      ),
    );
    return new Response();
  });
  return html;
}

describeEachDatabase("organisation settings pages", (target) => {
  let db: Database;

  beforeAll(async () => {
    db = await target.open();
  });

  afterAll(async () => {
    await db.close();
  });

  /** A fresh organisation with one user per role (each case mutates its own). */
  async function world(): Promise<{ orgId: string; users: Record<OrgRole, User> }> {
    const users = {
      owner: await createAuthUser(db, { fullName: "Olivia Owner" }),
      admin: await createAuthUser(db),
      clinician: await createAuthUser(db),
      staff: await createAuthUser(db),
    };
    const orgId = await createOrg(
      db,
      ROLES.map((role) => ({ userId: users[role].id, role })),
    );
    return { orgId, users };
  }

  const orgRow = (orgId: string) =>
    db.kysely
      .selectFrom("organizations")
      .select(["name", "timezone", "region", "pms", "plan"])
      .where("id", "=", orgId)
      .executeTakeFirstOrThrow();
  const auditActions = async (orgId: string) =>
    (await db.kysely.selectFrom("audit_log").select("action").where("org_id", "=", orgId).orderBy("id").execute()).map(
      (r) => r.action,
    );
  const memberRole = async (orgId: string, userId: string) =>
    (
      await db.kysely
        .selectFrom("org_members")
        .select("role")
        .where("org_id", "=", orgId)
        .where("user_id", "=", userId)
        .executeTakeFirst()
    )?.role ?? null;

  const validUpdate = { intent: "update", name: "Clinique Soleil", timezone: "Europe/Paris", region: "eu", pms: "macpractice" };

  // ---------------------------------------------------------------- Organisation

  it("Organisation: every role reads it; only owners and admins get the editable form and its choices", async () => {
    const w = await world();
    for (const role of ROLES) {
      const page = await call(db, organizationPage, w.users[role], w.orgId, "/settings/organization");
      expect(page.status, role).toBe(200);
      expect(page.data.org).toMatchObject({ kind: "practice", plan: "trial", timezone: "UTC", region: "us", pms: "none" });
      expect(page.data.canEdit, role).toBe(MANAGERS.includes(role));
      if (MANAGERS.includes(role)) {
        expect(page.data.timeZones).toEqual(expect.arrayContaining(["UTC", "Europe/Paris", "America/New_York"]));
        expect(page.data.regions).toEqual(["us", "ca", "eu", "uk", "au", "other"]);
      } else {
        expect(page.data.timeZones).toEqual([]);
      }
    }
  });

  it("Organisation: owners and admins save name, time zone, region and PMS (audited); clinicians and staff get 403", async () => {
    const w = await world();
    for (const role of ["clinician", "staff"] as const) {
      const res = await call(db, organizationPage, w.users[role], w.orgId, "/settings/organization", validUpdate);
      expect(res.status, role).toBe(403);
      expect(res.data).toEqual({ intent: "update", failure: { code: "forbidden_role" } });
    }
    expect(await orgRow(w.orgId)).toMatchObject({ timezone: "UTC", region: "us", pms: "none" });
    for (const role of MANAGERS) {
      const update = { ...validUpdate, name: `Clinique ${role}`, region: role === "owner" ? "other" : "uk" };
      const res = await call(db, organizationPage, w.users[role], w.orgId, "/settings/organization", update);
      expect(res.status, role).toBe(200);
      expect(res.data).toEqual({ intent: "update", done: true });
      expect(await orgRow(w.orgId)).toMatchObject({
        name: update.name,
        timezone: "Europe/Paris",
        region: update.region,
        pms: "macpractice",
      });
    }
    const audit = await db.kysely
      .selectFrom("audit_log")
      .select(["action", "actor_id", "ip", "user_agent"])
      .where("org_id", "=", w.orgId)
      .orderBy("id")
      .execute();
    expect(audit.map((a) => [a.action, a.actor_id])).toEqual([
      ["org.updated", w.users.owner.id],
      ["org.updated", w.users.admin.id],
    ]);
    expect(audit[0]).toMatchObject({ ip: "127.0.0.1", user_agent: "vitest" });
  });

  it("Organisation: invalid fields are 400 with a stable code and change nothing; the plan is not editable here", async () => {
    const w = await world();
    const cases: [Record<string, string>, string][] = [
      [{ name: "   " }, "name_required"],
      [{ name: "x".repeat(201) }, "name_too_long"],
      [{ timezone: "Mars/Olympus_Mons" }, "invalid_timezone"],
      [{ region: "zz" }, "invalid_region"],
      [{ pms: "epic" }, "invalid_pms"],
      [{ intent: "delete" }, "invalid_input"],
    ];
    for (const [override, code] of cases) {
      const res = await call(db, organizationPage, w.users.owner, w.orgId, "/settings/organization", {
        ...validUpdate,
        ...override,
      });
      expect(res.status, code).toBe(400);
      expect(res.data.failure, code).toEqual({ code });
    }
    const withPlan = await call(db, organizationPage, w.users.owner, w.orgId, "/settings/organization", {
      ...validUpdate,
      plan: "Clinic",
    });
    expect(withPlan.status).toBe(200);
    expect(await orgRow(w.orgId)).toMatchObject({ plan: "trial", name: "Clinique Soleil" });
    expect(await auditActions(w.orgId)).toEqual(["org.updated"]);
  });

  it("Organisation: owners and admins set the accent colour (audited, shown to the shell); unreadable ones are refused", async () => {
    const w = await world();
    const save = (as: OrgRole, accent_color: string) =>
      call(db, organizationPage, w.users[as], w.orgId, "/settings/organization", { ...validUpdate, accent_color });
    const accent = async () =>
      (await db.kysely.selectFrom("organizations").select("accent_color").where("id", "=", w.orgId).executeTakeFirstOrThrow())
        .accent_color;
    expect((await save("clinician", "#0b7285")).status).toBe(403);
    // White text on pale yellow is 1.6:1; "red" is not #rrggbb.
    expect((await save("owner", "#ffd43b")).data.failure).toEqual({ code: "accent_low_contrast" });
    expect((await save("owner", "red")).data.failure).toEqual({ code: "invalid_accent" });
    expect(await accent()).toBeNull();
    expect((await save("owner", "#0B7285")).status).toBe(200);
    expect(await accent()).toBe("#0b7285");
    const page = await call(db, organizationPage, w.users.staff, w.orgId, "/settings/organization");
    expect(page.data.org.accent_color).toBe("#0b7285");
    // Choosing Murmur's own colour again stores none.
    expect((await save("admin", DEFAULT_ACCENT)).status).toBe(200);
    expect(await accent()).toBeNull();
    const changes = await db.kysely
      .selectFrom("audit_log")
      .select("details")
      .where("org_id", "=", w.orgId)
      .where("action", "=", "org.updated")
      .orderBy("id")
      .execute();
    expect(changes.map((c) => (c.details as { changes: { accent_color?: unknown } }).changes.accent_color)).toContainEqual({
      from: null,
      to: "#0b7285",
    });
  });

  it("Organisation: a region or time zone set outside the page's lists (through the API) stays valid", async () => {
    const w = await world();
    await sql`update public.organizations set region = 'nz', timezone = 'US/Eastern' where id = ${w.orgId}`.execute(db.kysely);
    const page = await call(db, organizationPage, w.users.admin, w.orgId, "/settings/organization");
    expect(page.data.regions[0]).toBe("nz");
    expect(page.data.timeZones[0]).toBe("US/Eastern");
    const res = await call(db, organizationPage, w.users.admin, w.orgId, "/settings/organization", {
      ...validUpdate,
      region: "nz",
      timezone: "US/Eastern",
    });
    expect(res.status).toBe(200);
    expect(await orgRow(w.orgId)).toMatchObject({ region: "nz", timezone: "US/Eastern", name: "Clinique Soleil" });
    // Another organisation's odd value is not a free pass here.
    const other = await world();
    const refused = await call(db, organizationPage, other.users.owner, other.orgId, "/settings/organization", {
      ...validUpdate,
      region: "nz",
    });
    expect(refused.data.failure).toEqual({ code: "invalid_region" });
  });

  it("Organisation: any member can leave — the murmur-org cookie is cleared and they land on the localized dashboard", async () => {
    const w = await world();
    for (const role of ["staff", "clinician", "admin"] as const) {
      const res = await call(db, organizationPage, w.users[role], w.orgId, "/fr/settings/organization", { intent: "leave" });
      expect(res.status, role).toBe(302);
      expect(res.location).toBe("/fr/dashboard");
      expect(res.setCookie).toEqual(["murmur-org=; Path=/; Max-Age=0; SameSite=Lax"]);
      expect(await memberRole(w.orgId, w.users[role].id)).toBeNull();
    }
    expect(await auditActions(w.orgId)).toEqual(["member.left", "member.left", "member.left"]);
    const english = await world();
    const res = await call(db, organizationPage, english.users.staff, english.orgId, "/settings/organization", {
      intent: "leave",
    });
    expect(res.location).toBe("/dashboard");
  });

  it("Organisation: the last owner cannot leave — 409 last_owner, shown translated; a second owner lets them", async () => {
    const w = await world();
    const res = await call(db, organizationPage, w.users.owner, w.orgId, "/es/settings/organization", { intent: "leave" });
    expect(res.status).toBe(409);
    expect(res.data).toEqual({ intent: "leave", failure: { code: "last_owner" } });
    expect(res.setCookie).toEqual([]);
    expect(await memberRole(w.orgId, w.users.owner.id)).toBe("owner");
    expect(await auditActions(w.orgId)).toEqual([]);

    const loaderData = (await call(db, organizationPage, w.users.owner, w.orgId, "/es/settings/organization")).data;
    const html = await render(
      "/es/settings/organization",
      createElement(organizationPage.default, { loaderData, actionData: res.data } as never),
    );
    expect(html).toContain(resources.es.orgSettings.errors.last_owner);
    expect(html).toContain('data-code="last_owner"');
    expect(resources.es.orgSettings.errors.last_owner).not.toBe(resources.en.orgSettings.errors.last_owner);

    await sql`update public.org_members set role = 'owner' where org_id = ${w.orgId} and user_id = ${w.users.admin.id}`.execute(
      db.kysely,
    );
    const again = await call(db, organizationPage, w.users.owner, w.orgId, "/settings/organization", { intent: "leave" });
    expect(again.status).toBe(302);
  });

  it("Organisation: the page renders the saved values, read-only for staff, with the plan linking to billing (French)", async () => {
    const w = await world();
    await call(db, organizationPage, w.users.owner, w.orgId, "/settings/organization", validUpdate);
    const staffData = (await call(db, organizationPage, w.users.staff, w.orgId, "/fr/settings/organization")).data;
    const html = await render(
      "/fr/settings/organization",
      createElement(organizationPage.default, { loaderData: staffData } as never),
    );
    expect(html).toContain("Clinique Soleil");
    expect(html).toContain(resources.fr.orgSettings.organization.readOnly);
    expect(html).toContain(resources.fr.orgSettings.regions.eu);
    expect(html).not.toContain('name="timezone"');
    expect(html).toContain('href="/fr/settings/billing"');
    expect(html).toContain(resources.fr.orgSettings.organization.leave.button);

    const ownerData = (await call(db, organizationPage, w.users.owner, w.orgId, "/fr/settings/organization")).data;
    const form = await render(
      "/fr/settings/organization",
      createElement(organizationPage.default, { loaderData: ownerData, actionData: { intent: "update", done: true } } as never),
    );
    expect(form).toContain('name="timezone"');
    expect(form).toContain(resources.fr.orgSettings.organization.saved);
  });

  // ---------------------------------------------------------------- Members

  it("Members: everyone sees the list with joined dates; the controls follow docs/permissions.md", async () => {
    const w = await world();
    type Row = { userId: string; role: OrgRole; isSelf: boolean; roleChoices: OrgRole[]; canRemove: boolean };
    const byRole: Record<OrgRole, Row[]> = {} as never;
    for (const role of ROLES) {
      const page = await call(db, membersPage, w.users[role], w.orgId, "/fr/settings/members");
      expect(page.status, role).toBe(200);
      // Listed by joining time; members created in the same clock tick may come in either order, so compare by role.
      const rows = [...(page.data.members as Row[])].sort((x, y) => ROLES.indexOf(x.role) - ROLES.indexOf(y.role));
      expect(rows.map((m) => [m.role, m.userId])).toEqual(ROLES.map((r) => [r, w.users[r].id]));
      expect(rows.find((m) => m.isSelf)?.userId).toBe(w.users[role].id);
      expect(rows[0]).toMatchObject({ name: "Olivia Owner", email: w.users.owner.email });
      byRole[role] = rows;
    }
    const year = String(new Date().getUTCFullYear());
    expect(byRole.staff[0]).toMatchObject({ joined: expect.stringContaining(year) });
    // Owner: every role for everyone, removes everyone but themself.
    expect(byRole.owner.map((m) => [m.roleChoices, m.canRemove])).toEqual([
      [ROLES, false],
      [ROLES, true],
      [ROLES, true],
      [ROLES, true],
    ]);
    // Admin: nothing on the owner, non-owner roles for the rest, removes non-owners but not themself.
    const nonOwner: OrgRole[] = ["admin", "clinician", "staff"];
    expect(byRole.admin.map((m) => [m.roleChoices, m.canRemove])).toEqual([
      [[], false],
      [nonOwner, false],
      [nonOwner, true],
      [nonOwner, true],
    ]);
    for (const role of ["clinician", "staff"] as const) {
      expect(
        byRole[role].every((m) => m.roleChoices.length === 0 && !m.canRemove),
        role,
      ).toBe(true);
    }
  });

  it("Members: role changes and removals per role — the server refuses what the page does not offer", async () => {
    const w = await world();
    const post = (as: OrgRole, form: Record<string, string>) =>
      call(db, membersPage, w.users[as], w.orgId, "/settings/members", form);
    const change = (as: OrgRole, who: OrgRole, role: OrgRole) =>
      post(as, { intent: "change-role", userId: w.users[who].id, role });
    const remove = (as: OrgRole, who: OrgRole) => post(as, { intent: "remove", userId: w.users[who].id });

    for (const [res, label] of [
      [await change("clinician", "staff", "admin"), "clinician changes a role"],
      [await change("staff", "staff", "clinician"), "staff promotes themself"],
      [await change("admin", "owner", "staff"), "admin demotes the owner"],
      [await change("admin", "staff", "owner"), "admin promotes to owner"],
      [await remove("admin", "owner"), "admin removes the owner"],
      [await remove("clinician", "staff"), "clinician removes staff"],
    ] as const) {
      expect(res.status, label).toBe(403);
      expect(res.data.failure, label).toEqual({ code: "forbidden_role" });
    }
    expect(await memberRole(w.orgId, w.users.staff.id)).toBe("staff");
    expect(await memberRole(w.orgId, w.users.owner.id)).toBe("owner");

    const promoted = await change("admin", "staff", "clinician");
    expect(promoted).toMatchObject({ status: 200, data: { intent: "change-role", done: true, userId: w.users.staff.id } });
    expect(await memberRole(w.orgId, w.users.staff.id)).toBe("clinician");
    expect((await remove("admin", "clinician")).status).toBe(200);
    expect(await memberRole(w.orgId, w.users.clinician.id)).toBeNull();
    expect((await change("owner", "admin", "owner")).status).toBe(200);
    expect((await remove("owner", "admin")).status).toBe(200);
    expect(await auditActions(w.orgId)).toEqual([
      "member.role_changed",
      "member.removed",
      "member.role_changed",
      "member.removed",
    ]);
  });

  it("Members: the last owner cannot be demoted or removed — 409 last_owner, shown translated next to them", async () => {
    const w = await world();
    const demote = await call(db, membersPage, w.users.owner, w.orgId, "/fr/settings/members", {
      intent: "change-role",
      userId: w.users.owner.id,
      role: "admin",
    });
    expect(demote.status).toBe(409);
    expect(demote.data).toEqual({ intent: "change-role", failure: { code: "last_owner" }, userId: w.users.owner.id });
    const remove = await call(db, membersPage, w.users.owner, w.orgId, "/settings/members", {
      intent: "remove",
      userId: w.users.owner.id,
    });
    expect(remove.status).toBe(409);
    expect(remove.data.failure).toEqual({ code: "last_owner" });
    expect(await memberRole(w.orgId, w.users.owner.id)).toBe("owner");
    expect(await auditActions(w.orgId)).toEqual([]);

    const loaderData = (await call(db, membersPage, w.users.owner, w.orgId, "/fr/settings/members")).data;
    const html = await render(
      "/fr/settings/members",
      createElement(membersPage.default, { loaderData, actionData: demote.data } as never),
    );
    const start = html.indexOf(`data-member="${w.users.owner.id}"`);
    const owner = html.slice(start, html.indexOf("</article>", start));
    expect(owner).toContain(resources.fr.orgSettings.errors.last_owner);
    expect(html.split(resources.fr.orgSettings.errors.last_owner)).toHaveLength(2);
    expect(html).toContain(resources.fr.orgSettings.members.saveRole);
  });

  it("Members: malformed forms are 400 invalid_input; an unknown member is 404 member_not_found", async () => {
    const w = await world();
    const post = (form: Record<string, string>) => call(db, membersPage, w.users.owner, w.orgId, "/settings/members", form);
    const forms: Record<string, string>[] = [
      { intent: "change-role", userId: "not-a-uuid", role: "staff" },
      { intent: "change-role", userId: w.users.staff.id, role: "superuser" },
      { intent: "promote", userId: w.users.staff.id },
      {},
    ];
    for (const form of forms) {
      const res = await post(form);
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(res.data.failure).toEqual({ code: "invalid_input" });
    }
    const stranger = await createAuthUser(db);
    const missing = await post({ intent: "remove", userId: stranger.id });
    expect(missing.status).toBe(404);
    expect(missing.data.failure).toEqual({ code: "member_not_found" });
  });

  it("Members: a member of another organisation cannot act on this one's members through the page", async () => {
    const a = await world();
    const b = await world();
    // B's owner posts about A's staff member: the page works in B (the cookie names A, but B's owner is not in A).
    const res = await call(db, membersPage, b.users.owner, a.orgId, "/settings/members", {
      intent: "remove",
      userId: a.users.staff.id,
    });
    expect(res.status).toBe(404);
    expect(res.data.failure).toEqual({ code: "member_not_found" });
    expect(await memberRole(a.orgId, a.users.staff.id)).toBe("staff");
    const list = await call(db, membersPage, b.users.owner, a.orgId, "/settings/members");
    expect(list.data.members.map((m: { userId: string }) => m.userId)).not.toContain(a.users.staff.id);
  });

  // ---------------------------------------------------------------- Audit log

  it("Audit log: owners and admins read it; clinicians and staff get 403 forbidden_role", async () => {
    const w = await world();
    await call(db, organizationPage, w.users.owner, w.orgId, "/settings/organization", validUpdate);
    for (const role of ROLES) {
      const page = await call(db, auditPage, w.users[role], w.orgId, "/settings/audit");
      if (MANAGERS.includes(role)) {
        expect(page.status, role).toBe(200);
        expect(page.data.rows.map((r: { action: string }) => r.action)).toEqual(["org.updated"]);
        expect(page.data.rows[0]).toMatchObject({ actor: w.users.owner.email, ip: "127.0.0.1", entity: "organization" });
      } else {
        expect(page.status, role).toBe(403);
        expect(page.data).toEqual({ code: "forbidden_role" });
      }
    }
  });

  it("Audit log: malformed filters are a 400 invalid_audit_filter page, translated", async () => {
    const w = await world();
    for (const query of [
      "actor=not-a-uuid",
      "action=org.deleted",
      "from=2024-02-30",
      "from=24-01-01",
      "from=2024-05-02&to=2024-05-01",
      "to=1969-12-31",
      "before=abc",
      "before=-1",
      "before=99999999999999999999",
      "action=org.updated&action=member.left",
      "day=2024-02-30",
      "day=2024-03-31&to=2024-04-01",
    ]) {
      const res = await call(db, auditPage, w.users.admin, w.orgId, `/settings/audit?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.data, query).toEqual({ code: "invalid_audit_filter" });
    }
    // Empty fields (an untouched GET form) and parameters that are not filters are fine.
    const ok = await call(db, auditPage, w.users.admin, w.orgId, `/settings/audit?actor=&action=&from=&to=&org=${w.orgId}`);
    expect(ok.status).toBe(200);

    const html = await render(
      "/fr/settings/audit",
      createElement(auditPage.ErrorBoundary, {
        error: { status: 400, statusText: "", internal: false, data: { code: "invalid_audit_filter" } },
      } as never),
    );
    expect(html).toContain(resources.fr.orgSettings.errors.invalid_audit_filter);
  });

  it("Audit log: filters by actor, action and day reach the page; another organisation's trail never shows", async () => {
    // Pinned a few seconds before midnight UTC, the hour this test used to fail at (issue 16): it read
    // the rows' days as UTC days (`atIso.slice(0, 10)`) while the filter cuts Paris days, an hour
    // apart. PGlite's now() follows the pinned clock; on server PostgreSQL the rows' own days are used.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-25T23:59:58Z"), shouldAdvanceTime: true });
    try {
      await auditFilterJourney();
    } finally {
      vi.useRealTimers();
    }
  });

  async function auditFilterJourney() {
    const a = await world();
    const b = await world();
    await call(db, organizationPage, a.users.owner, a.orgId, "/settings/organization", validUpdate);
    await call(db, membersPage, a.users.admin, a.orgId, "/settings/members", {
      intent: "change-role",
      userId: a.users.staff.id,
      role: "clinician",
    });
    await call(db, organizationPage, b.users.owner, b.orgId, "/settings/organization", { ...validUpdate, name: "B practice" });

    const rows = async (user: User, orgId: string, query = "") =>
      (await call(db, auditPage, user, orgId, `/settings/audit${query}`)).data.rows.map((r: { action: string }) => r.action);
    expect(await rows(a.users.owner, a.orgId)).toEqual(["member.role_changed", "org.updated"]);
    expect(await rows(a.users.owner, a.orgId, `?actor=${a.users.admin.id}`)).toEqual(["member.role_changed"]);
    expect(await rows(a.users.owner, a.orgId, "?action=org.updated")).toEqual(["org.updated"]);
    // The days are the organisation's (validUpdate moved A to Europe/Paris), whatever the hour the suite runs at.
    const days = (await call(db, auditPage, a.users.owner, a.orgId, "/settings/audit")).data.rows.map((r: { atIso: string }) =>
      dayInZone(r.atIso, "Europe/Paris"),
    );
    expect(await rows(a.users.owner, a.orgId, `?from=${days.at(-1)}&to=${days[0]}`)).toHaveLength(2);
    expect(await rows(a.users.owner, a.orgId, `?from=${days.at(-1)}&to=${days[0]}&action=member.role_changed`)).toEqual([
      "member.role_changed",
    ]);
    expect(await rows(a.users.owner, a.orgId, "?to=2001-01-01")).toEqual([]);

    // B's owner, with a cookie naming A: the middleware does not let the page work in A, so none of A's entries show.
    expect(await rows(b.users.owner, b.orgId)).toEqual(["org.updated"]);
    const aIds = (
      await db.kysely.selectFrom("audit_log").select(sql<string>`id::text`.as("id")).where("org_id", "=", a.orgId).execute()
    ).map((r) => r.id);
    expect(aIds).toHaveLength(2);
    const foreign = await call(db, auditPage, b.users.owner, a.orgId, "/settings/audit");
    expect(foreign.status).toBe(200);
    expect(foreign.data.rows.map((r: { id: string }) => r.id).filter((id: string) => aIds.includes(id))).toEqual([]);
    expect((await call(db, auditPage, b.users.owner, a.orgId, `/settings/audit?actor=${a.users.owner.id}`)).data.rows).toEqual(
      [],
    );
    // Asking for A by deep link is the 404 of a page validity failure.
    const deep = await call(db, auditPage, b.users.owner, b.orgId, `/settings/audit?org=${a.orgId}`);
    expect(deep.status).toBe(404);
  }

  /**
   * Audit rows at chosen instants through the owner connection (the app writes `at` with the
   * database's clock, which no test can pin), newest last.
   */
  async function plantAudit(orgId: string, actorId: string, entries: [action: string, at: string][]) {
    for (const [action, at] of entries) {
      await sql`insert into public.audit_log (org_id, actor_id, action, entity, entity_id, at)
                values (${orgId}, ${actorId}, ${action}, 'organization', ${orgId}, ${at}::timestamptz)`.execute(db.kysely);
    }
  }

  it("Audit log: a day is the organisation's day at 23:30 and 00:30 local, on 23- and 25-hour days, whenever the suite runs", async () => {
    // Run "at" 23:30 UTC, when the UTC day is already not the day in Paris nor in New York: nothing may depend on it.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2024-03-30T23:30:00Z") });
    try {
      const w = await world();
      await sql`update public.organizations set timezone = 'Europe/Paris' where id = ${w.orgId}`.execute(db.kysely);
      await plantAudit(w.orgId, w.users.owner.id, [
        // 30 March, 23:30 in Paris (UTC+1): still the 30th there, the 30th in UTC too.
        ["org.updated", "2024-03-30T22:30:00Z"],
        // 31 March, 00:30 in Paris: the 31st there, still the 30th in UTC.
        ["member.role_changed", "2024-03-30T23:30:00Z"],
        // 31 March is 23 hours long in Paris (02:00 → 03:00); 23:30 (UTC+2) is its last half hour.
        ["invitation.created", "2024-03-31T21:30:00Z"],
        // 1 April, 00:30 in Paris: already April there, still 31 March in UTC.
        ["invitation.revoked", "2024-03-31T22:30:00Z"],
      ]);
      const page = async (query: string) => (await call(db, auditPage, w.users.owner, w.orgId, `/settings/audit${query}`)).data;
      const actions = async (query: string) => (await page(query)).rows.map((r: { action: string }) => r.action);
      expect(await actions("?day=2024-03-30")).toEqual(["org.updated"]);
      expect(await actions("?day=2024-03-31")).toEqual(["invitation.created", "member.role_changed"]);
      expect(await actions("?day=2024-04-01")).toEqual(["invitation.revoked"]);
      expect(await actions("?from=2024-03-31&to=2024-03-31")).toEqual(["invitation.created", "member.role_changed"]);
      expect(await actions("?from=2024-03-31")).toEqual(["invitation.revoked", "invitation.created", "member.role_changed"]);
      expect(await actions("?to=2024-03-30")).toEqual(["org.updated"]);
      // The times shown are Paris times, in the page's language; the day filter comes back in the form.
      const paris = await page("?day=2024-03-31");
      expect(paris.filters).toMatchObject({ from: "2024-03-31", to: "2024-03-31" });
      expect(paris.rows.map((r: { at: string }) => r.at)).toEqual([
        new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "medium", timeZone: "Europe/Paris" }).format(
          new Date("2024-03-31T21:30:00Z"),
        ),
        new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "medium", timeZone: "Europe/Paris" }).format(
          new Date("2024-03-30T23:30:00Z"),
        ),
      ]);
      expect(paris.rows[0].at).toMatch(/Mar 31, 2024.*11:30:00\sPM/);
      expect(paris.rows[1].at).toMatch(/Mar 31, 2024.*12:30:00\sAM/);
      const fr = (await call(db, auditPage, w.users.owner, w.orgId, "/fr/settings/audit?day=2024-04-01")).data.rows;
      expect(fr.map((r: { at: string }) => r.at)).toEqual(["1 avr. 2024, 00:30:00"]);
      // "day" is one day: together with from/to it is ambiguous, a 400.
      expect((await call(db, auditPage, w.users.owner, w.orgId, "/settings/audit?day=2024-03-31&from=2024-03-30")).status).toBe(
        400,
      );

      // New York: 3 November 2024 is 25 hours long (02:00 EDT → 01:00 EST).
      const ny = await world();
      await sql`update public.organizations set timezone = 'America/New_York' where id = ${ny.orgId}`.execute(db.kysely);
      await plantAudit(ny.orgId, ny.users.owner.id, [
        ["org.updated", "2024-11-03T03:30:00Z"], // 2 November, 23:30 EDT (UTC: the 3rd)
        ["member.role_changed", "2024-11-03T04:30:00Z"], // 3 November, 00:30 EDT
        ["invitation.created", "2024-11-04T04:30:00Z"], // 3 November, 23:30 EST (UTC: the 4th)
        ["invitation.revoked", "2024-11-04T05:30:00Z"], // 4 November, 00:30 EST
      ]);
      const nyActions = async (query: string) =>
        (await call(db, auditPage, ny.users.owner, ny.orgId, `/settings/audit${query}`)).data.rows.map(
          (r: { action: string }) => r.action,
        );
      expect(await nyActions("?day=2024-11-02")).toEqual(["org.updated"]);
      expect(await nyActions("?day=2024-11-03")).toEqual(["invitation.created", "member.role_changed"]);
      expect(await nyActions("?day=2024-11-04")).toEqual(["invitation.revoked"]);
      const nyRows = (await call(db, auditPage, ny.users.owner, ny.orgId, "/settings/audit?day=2024-11-03")).data.rows;
      expect(nyRows[0].at).toMatch(/Nov 3, 2024.*11:30:00\sPM/);
      expect(nyRows[1].at).toMatch(/Nov 3, 2024.*12:30:00\sAM/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("Audit log: the page renders actor, translated action, entity, details and the filters (Spanish)", async () => {
    const w = await world();
    await call(db, membersPage, w.users.owner, w.orgId, "/settings/members", {
      intent: "change-role",
      userId: w.users.staff.id,
      role: "admin",
    });
    // An entry without an actor, as the billing webhook writes through the owner connection.
    await sql`insert into public.audit_log (org_id, actor_id, action, entity, entity_id, details)
              values (${w.orgId}, null, 'org.plan_changed', 'organization', ${w.orgId}, '{"from":"trial","to":"Clinic"}'::jsonb)`.execute(
      db.kysely,
    );
    const loaderData = (await call(db, auditPage, w.users.owner, w.orgId, "/es/settings/audit")).data;
    const html = await render("/es/settings/audit", createElement(auditPage.default, { loaderData } as never));
    expect(html).toContain(resources.es.orgSettings.audit.actions.member.role_changed);
    expect(html).toContain(`${resources.es.org.roles.staff} → ${resources.es.org.roles.admin}`);
    expect(html).toContain(w.users.owner.email);
    expect(html).toContain(w.users.staff.email);
    expect(html).toContain(resources.es.orgSettings.audit.filters.apply);
    expect(html).toContain(`<option value="${w.users.admin.id}">`);
    expect(html).toContain(resources.es.orgSettings.audit.system);
    expect(html).toContain(`${resources.es.orgSettings.plans.trial} → ${resources.es.orgSettings.plans.Clinic}`);
  });
});
