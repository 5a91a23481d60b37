import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as acceptRoute from "#app/routes/resources/api-invitations-accept.ts";
import * as orgRoute from "#app/routes/resources/api-org.ts";
import * as auditExportRoute from "#app/routes/resources/api-org-audit-export.ts";
import * as invitationRoute from "#app/routes/resources/api-org-invitation.ts";
import * as resendRoute from "#app/routes/resources/api-org-invitation-resend.ts";
import * as invitationsRoute from "#app/routes/resources/api-org-invitations.ts";
import * as memberRoute from "#app/routes/resources/api-org-member.ts";
import * as membersRoute from "#app/routes/resources/api-org-members.ts";
import * as noteChecksRoute from "#app/routes/resources/api-org-note-checks.ts";
import * as orgsRoute from "#app/routes/resources/api-orgs.ts";
import * as currentRoute from "#app/routes/resources/api-orgs-current.ts";
import * as personalRoute from "#app/routes/resources/api-orgs-personal.ts";
import { hashToken, randomToken } from "#app/services/auth/crypto.server.ts";
import { type ApiHarness, type ApiUser, callRoute, openApiHarness, type RouteModule } from "#tests/setup/api.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrg } from "#tests/setup/orgs.ts";

// Issue 4 "Proof": every organisation API route × {owner, admin, clinician, staff of A, a member of
// B only, anonymous}, always with A's ids. Each case gets a fresh org A, so a mutation allowed in one
// case cannot hide a refusal in the next. Expected statuses follow docs/permissions.md.

type Who = "owner" | "admin" | "clinician" | "staff" | "outsider" | "anonymous";
const WHO: Who[] = ["owner", "admin", "clinician", "staff", "outsider", "anonymous"];

/** Org A of one case: its id, a plain staff member to act on, and a pending staff invitation. */
interface World {
  orgId: string;
  targetId: string;
  ownerId: string;
  invitationId: string;
  invitationToken: string;
}

interface RouteCase {
  name: string;
  module: RouteModule;
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  path: (w: World) => string;
  params: (w: World) => Record<string, string>;
  body?: (w: World) => unknown;
  headers?: (w: World) => Record<string, string>;
  expect: Record<Who, number>;
  /** The audit action a successful call records. */
  audit?: string;
  /** The error code of a 403 (forbidden_role unless said otherwise). */
  forbiddenCode?: string;
}

const anyone = (ok: number): Record<Who, number> => ({
  owner: ok,
  admin: ok,
  clinician: ok,
  staff: ok,
  outsider: ok,
  anonymous: 401,
});
const members = (ok: number): Record<Who, number> => ({ ...anyone(ok), outsider: 404 });
const managers = (ok: number): Record<Who, number> => ({ ...members(ok), clinician: 403, staff: 403 });
const ownerOnly = (ok: number): Record<Who, number> => ({ ...managers(ok), admin: 403 });

const org = (w: World) => `/api/orgs/${w.orgId}`;
const CASES: RouteCase[] = [
  { name: "GET /api/orgs", module: orgsRoute, method: "GET", path: () => "/api/orgs", params: () => ({}), expect: anyone(200) },
  {
    name: "POST /api/orgs",
    module: orgsRoute,
    method: "POST",
    path: () => "/api/orgs",
    params: () => ({}),
    body: () => ({ name: "Another practice" }),
    expect: anyone(201),
    audit: "org.created",
  },
  {
    name: "POST /api/orgs/personal",
    module: personalRoute,
    method: "POST",
    path: () => "/api/orgs/personal",
    params: () => ({}),
    expect: anyone(200),
  },
  {
    name: "GET /api/orgs/:id",
    module: orgRoute,
    method: "GET",
    path: org,
    params: (w) => ({ id: w.orgId }),
    expect: members(200),
  },
  {
    name: "PATCH /api/orgs/:id (settings)",
    module: orgRoute,
    method: "PATCH",
    path: org,
    params: (w) => ({ id: w.orgId }),
    body: () => ({ name: "Renamed", timezone: "Europe/Madrid", region: "eu", pms: "macpractice" }),
    expect: managers(200),
    audit: "org.updated",
  },
  {
    name: "PATCH /api/orgs/:id (plan)",
    module: orgRoute,
    method: "PATCH",
    path: org,
    params: (w) => ({ id: w.orgId }),
    body: () => ({ plan: "Clinic" }),
    expect: ownerOnly(200),
    audit: "org.plan_changed",
  },
  {
    name: "GET /api/orgs/:id/audit-log/export?format=json",
    module: auditExportRoute,
    method: "GET",
    path: (w) => `${org(w)}/audit-log/export?format=json`,
    params: (w) => ({ id: w.orgId }),
    expect: ownerOnly(200),
    audit: "audit.exported",
  },
  // Issue 27: which checks only advise — read by those who sign notes, set by the owner.
  {
    name: "GET /api/orgs/:id/note-checks",
    module: noteChecksRoute,
    method: "GET",
    path: (w) => `${org(w)}/note-checks`,
    params: (w) => ({ id: w.orgId }),
    expect: { ...members(200), admin: 403, staff: 403 },
  },
  {
    name: "PUT /api/orgs/:id/note-checks",
    module: noteChecksRoute,
    method: "PUT",
    path: (w) => `${org(w)}/note-checks`,
    params: (w) => ({ id: w.orgId }),
    body: () => ({ advisory: ["low_confidence"] }),
    expect: ownerOnly(200),
    audit: "org.updated",
  },
  {
    name: "GET /api/orgs/:id/members",
    module: membersRoute,
    method: "GET",
    path: (w) => `${org(w)}/members`,
    params: (w) => ({ id: w.orgId }),
    expect: members(200),
  },
  {
    name: "PATCH /api/orgs/:id/members/:userId (staff → clinician)",
    module: memberRoute,
    method: "PATCH",
    path: (w) => `${org(w)}/members/${w.targetId}`,
    params: (w) => ({ id: w.orgId, userId: w.targetId }),
    body: () => ({ role: "clinician" }),
    expect: managers(200),
    audit: "member.role_changed",
  },
  {
    name: "PATCH /api/orgs/:id/members/:userId (staff → owner)",
    module: memberRoute,
    method: "PATCH",
    path: (w) => `${org(w)}/members/${w.targetId}`,
    params: (w) => ({ id: w.orgId, userId: w.targetId }),
    body: () => ({ role: "owner" }),
    expect: ownerOnly(200),
    audit: "member.role_changed",
  },
  {
    name: "PATCH /api/orgs/:id/members/:userId (demote the only owner)",
    module: memberRoute,
    method: "PATCH",
    path: (w) => `${org(w)}/members/${w.ownerId}`,
    params: (w) => ({ id: w.orgId, userId: w.ownerId }),
    body: () => ({ role: "staff" }),
    expect: { ...ownerOnly(0), owner: 409 },
  },
  {
    name: "DELETE /api/orgs/:id/members/:userId",
    module: memberRoute,
    method: "DELETE",
    path: (w) => `${org(w)}/members/${w.targetId}`,
    params: (w) => ({ id: w.orgId, userId: w.targetId }),
    expect: managers(204),
    audit: "member.removed",
  },
  {
    name: "DELETE /api/orgs/:id/members/:userId (the owner)",
    module: memberRoute,
    method: "DELETE",
    path: (w) => `${org(w)}/members/${w.ownerId}`,
    params: (w) => ({ id: w.orgId, userId: w.ownerId }),
    expect: { ...ownerOnly(0), owner: 409 },
  },
  {
    name: "POST /api/orgs/:id/invitations (staff)",
    module: invitationsRoute,
    method: "POST",
    path: (w) => `${org(w)}/invitations`,
    params: (w) => ({ id: w.orgId }),
    body: () => ({ email: "New.Colleague@Example.test", role: "staff" }),
    expect: managers(201),
    audit: "invitation.created",
  },
  {
    name: "POST /api/orgs/:id/invitations (owner)",
    module: invitationsRoute,
    method: "POST",
    path: (w) => `${org(w)}/invitations`,
    params: (w) => ({ id: w.orgId }),
    body: () => ({ email: "partner@example.test", role: "owner" }),
    expect: ownerOnly(201),
    audit: "invitation.created",
  },
  {
    name: "GET /api/orgs/:id/invitations",
    module: invitationsRoute,
    method: "GET",
    path: (w) => `${org(w)}/invitations`,
    params: (w) => ({ id: w.orgId }),
    expect: managers(200),
  },
  {
    name: "POST /api/orgs/:id/invitations/:invId/resend",
    module: resendRoute,
    method: "POST",
    path: (w) => `${org(w)}/invitations/${w.invitationId}/resend`,
    params: (w) => ({ id: w.orgId, invId: w.invitationId }),
    expect: managers(200),
    audit: "invitation.resent",
  },
  {
    // SPEC §7: org-scoped calls name the organisation in x-org-id; non-members get 404.
    name: "GET /api/orgs/current (x-org-id: A)",
    module: currentRoute,
    method: "GET",
    path: () => "/api/orgs/current",
    params: () => ({}),
    headers: (w) => ({ "x-org-id": w.orgId }),
    expect: members(200),
  },
  {
    name: "DELETE /api/orgs/:id/invitations/:invId",
    module: invitationRoute,
    method: "DELETE",
    path: (w) => `${org(w)}/invitations/${w.invitationId}`,
    params: (w) => ({ id: w.orgId, invId: w.invitationId }),
    expect: managers(204),
    audit: "invitation.revoked",
  },
  {
    // A's invitation was sent to someone else: nobody here may use the token, whatever their role.
    name: "POST /api/invitations/accept (A's token, another email)",
    module: acceptRoute,
    method: "POST",
    path: () => "/api/invitations/accept",
    params: () => ({}),
    body: (w) => ({ token: w.invitationToken }),
    expect: anyone(403),
    forbiddenCode: "invitation_email_mismatch",
  },
];

const CODES: Record<number, string> = { 401: "not_authenticated", 404: "org_not_found", 409: "last_owner" };

describeEachDatabase("organisation API isolation matrix", (target) => {
  let h: ApiHarness;
  let people: Record<Exclude<Who, "anonymous">, ApiUser> & { target: ApiUser };

  beforeAll(async () => {
    h = await openApiHarness(target);
    people = {
      owner: await h.user(),
      admin: await h.user(),
      clinician: await h.user(),
      staff: await h.user(),
      outsider: await h.user(),
      target: await h.user(),
    };
    await createOrg(h.db, [{ userId: people.outsider.id, role: "owner" }], { name: "Org B" });
  });

  afterAll(async () => {
    await h.close();
  });

  async function freshWorld(): Promise<World> {
    const orgId = await createOrg(
      h.db,
      [
        { userId: people.owner.id, role: "owner" },
        { userId: people.admin.id, role: "admin" },
        { userId: people.clinician.id, role: "clinician" },
        { userId: people.staff.id, role: "staff" },
        { userId: people.target.id, role: "staff" },
      ],
      // Five members and an invitation: over the trial's limit, within Practice's.
      { plan: "practice" },
    );
    const invitationToken = randomToken(32);
    const { rows } = await sql<{ id: string }>`
      insert into public.invitations (org_id, email, role, token_hash, invited_by)
      values (${orgId}, 'someone.else@example.test', 'staff', ${hashToken(invitationToken)}, ${people.owner.id})
      returning id`.execute(h.db.kysely);
    return { orgId, targetId: people.target.id, ownerId: people.owner.id, invitationId: rows[0]?.id ?? "", invitationToken };
  }

  /** Org A as the owner connection sees it, to prove a refused call changed nothing. */
  async function fingerprint(orgId: string): Promise<string> {
    const orgRow = await sql`select name, plan, pms, timezone, region from public.organizations where id = ${orgId}`.execute(
      h.db.kysely,
    );
    const memberRows = await sql`select user_id, role from public.org_members where org_id = ${orgId} order by user_id`.execute(
      h.db.kysely,
    );
    const invitationRows = await sql`
      select email, role, accepted_at, revoked_at from public.invitations where org_id = ${orgId} order by id`.execute(
      h.db.kysely,
    );
    const audit = await sql`select action from public.audit_log where org_id = ${orgId}`.execute(h.db.kysely);
    return JSON.stringify([orgRow.rows, memberRows.rows, invitationRows.rows, audit.rows]);
  }

  for (const c of CASES) {
    for (const who of WHO) {
      const status = c.expect[who];
      it(`${c.name} as ${who} → ${status}`, async () => {
        const w = await freshWorld();
        const before = await fingerprint(w.orgId);
        const res = await callRoute(h, c.module, {
          method: c.method,
          path: c.path(w),
          params: c.params(w),
          token: who === "anonymous" ? null : people[who].token,
          body: c.body?.(w),
          headers: c.headers?.(w),
        });
        expect(res.status).toBe(status);
        if (status >= 400) {
          const code = status === 403 ? (c.forbiddenCode ?? "forbidden_role") : CODES[status];
          expect(res.body).toEqual({ code, message: expect.any(String) });
          // A refused call changes nothing in A, not even its audit log.
          expect(await fingerprint(w.orgId)).toBe(before);
        }
        if (who === "outsider" || who === "anonymous") {
          // B's member and anonymous callers never see a byte of A.
          const seen = JSON.stringify(res.body);
          expect(seen).not.toContain(w.orgId);
          for (const p of [people.owner, people.admin, people.clinician, people.staff, people.target]) {
            expect(seen).not.toContain(p.id);
            expect(seen).not.toContain(p.email);
          }
        }
        if (status < 300 && c.audit && who !== "anonymous") {
          const { rows } = await sql<{ n: number }>`
            select count(*)::int as n from public.audit_log
            where actor_id = ${people[who].id} and action = ${c.audit}
              and (org_id = ${w.orgId} or ${c.name === "POST /api/orgs"})`.execute(h.db.kysely);
          expect(rows[0]?.n).toBeGreaterThanOrEqual(1);
        }
        if (c.name === "GET /api/orgs") {
          const ids = (res.body as { id: string }[] | { code: string }) ?? [];
          const listed = Array.isArray(ids) ? ids.map((o) => o.id) : [];
          expect(listed.includes(w.orgId)).toBe(who !== "outsider" && who !== "anonymous");
        }
      });
    }
  }

  it("every API route of app/routes.ts is in the matrix", async () => {
    const { default: routes } = await import("#app/routes.ts");
    const apiFiles = routes
      .map((r) => r.file)
      .filter((f) => /routes\/resources\/api-(orgs?|invitations)/.test(f))
      .map((f) => f.replace(/^routes\/resources\//, ""));
    const modules = new Map<RouteModule, string>([
      [orgsRoute, "api-orgs.ts"],
      [personalRoute, "api-orgs-personal.ts"],
      [orgRoute, "api-org.ts"],
      [auditExportRoute, "api-org-audit-export.ts"],
      [membersRoute, "api-org-members.ts"],
      [noteChecksRoute, "api-org-note-checks.ts"],
      [memberRoute, "api-org-member.ts"],
      [invitationsRoute, "api-org-invitations.ts"],
      [invitationRoute, "api-org-invitation.ts"],
      [resendRoute, "api-org-invitation-resend.ts"],
      [currentRoute, "api-orgs-current.ts"],
      [acceptRoute, "api-invitations-accept.ts"],
    ]);
    const covered = new Set(CASES.map((c) => modules.get(c.module)));
    expect(apiFiles.sort()).toEqual([...covered].sort());
  });
});
