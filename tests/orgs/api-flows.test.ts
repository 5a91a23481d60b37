import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as acceptRoute from "#app/routes/resources/api-invitations-accept.ts";
import * as orgRoute from "#app/routes/resources/api-org.ts";
import * as invitationRoute from "#app/routes/resources/api-org-invitation.ts";
import * as invitationsRoute from "#app/routes/resources/api-org-invitations.ts";
import * as memberRoute from "#app/routes/resources/api-org-member.ts";
import * as membersRoute from "#app/routes/resources/api-org-members.ts";
import * as orgsRoute from "#app/routes/resources/api-orgs.ts";
import * as personalRoute from "#app/routes/resources/api-orgs-personal.ts";
import { createInvitation, revokeInvitation } from "#app/services/orgs/invitations.server.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { type ApiHarness, type ApiUser, callRoute, orgWithEveryRole } from "#tests/setup/api.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrg } from "#tests/setup/orgs.ts";

// Issue 4 "API" and "Proof": personal organisation bootstrap, invitations end to end, role
// escalation attempts and bad input — always a 4xx with a stable code, never a 500.
describeEachDatabase("organisation API flows", (target) => {
  let h: ApiHarness;
  let a: Awaited<ReturnType<typeof orgWithEveryRole>>;

  beforeAll(async () => {
    const { openApiHarness } = await import("#tests/setup/api.ts");
    h = await openApiHarness(target);
    a = await orgWithEveryRole(h, (db, m) => createOrg(db, m, { plan: "Clinic" }));
  });

  afterAll(async () => {
    await h.close();
  });

  const invite = async (email: string, role: "owner" | "admin" | "clinician" | "staff" = "clinician") =>
    createInvitation({ db: h.db, actor: { userId: a.users.owner.id }, orgId: a.orgId, email, role });
  const accept = (user: ApiUser | null, token: string) =>
    callRoute(h, acceptRoute, { method: "POST", path: "/api/invitations/accept", token: user?.token ?? null, body: { token } });

  it("POST /api/orgs/personal: five concurrent calls give one id; named in the caller's language; GET /api/orgs lists it", async () => {
    const user = await h.user({ fullName: "Ana Ruiz" });
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        callRoute(h, personalRoute, {
          method: "POST",
          path: "/api/orgs/personal",
          token: user.token,
          headers: { "accept-language": "fr-FR,fr;q=0.9" },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const ids = new Set(results.map((r) => (r.body as { id: string }).id));
    expect(ids.size).toBe(1);
    const list = await callRoute(h, orgsRoute, { method: "GET", path: "/api/orgs", token: user.token });
    expect(list.body).toEqual([
      {
        id: [...ids][0],
        name: "Cabinet du Dr Ana Ruiz",
        slug: expect.stringMatching(/^cabinet-du-dr-ana-ruiz-[a-f0-9]{6}$/),
        kind: "personal",
        plan: "trial",
        pms: "none",
        timezone: "UTC",
        region: "us",
        role: "owner",
      },
    ]);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from public.audit_log where actor_id = ${user.id} and action = 'org.personal_created'`.execute(
      h.db.kysely,
    );
    expect(rows[0]?.n).toBeGreaterThanOrEqual(1);
  });

  it("POST /api/orgs creates a practice organisation on a trial; GET/PATCH /api/orgs/:id read and change it", async () => {
    const user = await h.user();
    const created = await callRoute(h, orgsRoute, {
      method: "POST",
      path: "/api/orgs",
      token: user.token,
      body: { name: "  Clínica Sol " },
    });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    const patched = await callRoute(h, orgRoute, {
      method: "PATCH",
      path: `/api/orgs/${id}`,
      params: { id },
      token: user.token,
      body: { name: "Clínica Luna", plan: "solo", pms: "dentrix", timezone: "America/Mexico_City", region: "MX" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id,
      name: "Clínica Luna",
      kind: "practice",
      plan: "solo",
      pms: "dentrix",
      region: "mx",
      role: "owner",
    });
    const { rows } = await sql<{ action: string; details: Record<string, unknown> }>`
      select action, details from public.audit_log where org_id = ${id} order by id`.execute(h.db.kysely);
    expect(rows.map((r) => r.action)).toEqual(["org.created", "org.updated", "org.plan_changed"]);
    expect(rows[2]?.details).toEqual({ from: "trial", to: "solo", provider: "manual" });
  });

  it("invitation happy path: the invitee (email in another case) accepts once and becomes a member with the invited role", async () => {
    const invitee = await h.user({ email: `Colleague-${randomUUID()}@Example.test` });
    const { id, token } = await invite(invitee.email.toUpperCase(), "clinician");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // Not a member yet: A is invisible.
    expect(
      (
        await callRoute(h, orgRoute, {
          method: "GET",
          path: `/api/orgs/${a.orgId}`,
          params: { id: a.orgId },
          token: invitee.token,
        })
      ).status,
    ).toBe(404);
    const res = await accept(invitee, token);
    expect(res).toEqual({ status: 200, body: { org_id: a.orgId, role: "clinician" } });
    const org = await callRoute(h, orgRoute, {
      method: "GET",
      path: `/api/orgs/${a.orgId}`,
      params: { id: a.orgId },
      token: invitee.token,
    });
    expect(org.body).toMatchObject({ id: a.orgId, role: "clinician" });
    const { rows } = await sql<{ accepted_by: string; hashed: boolean }>`
      select accepted_by, token_hash <> ${token} as hashed from public.invitations where id = ${id}`.execute(h.db.kysely);
    expect(rows[0]).toEqual({ accepted_by: invitee.id, hashed: true });
    // Replayed: used, by the invitee or anyone else.
    expect(await accept(invitee, token)).toEqual({ status: 409, body: { code: "invitation_used", message: expect.any(String) } });
    expect((await accept(a.users.staff, token)).body).toMatchObject({ code: "invitation_used" });
    // An accepted invitation can no longer be revoked.
    const revoke = await callRoute(h, invitationRoute, {
      method: "DELETE",
      path: `/api/orgs/${a.orgId}/invitations/${id}`,
      params: { id: a.orgId, invId: id },
      token: a.users.owner.token,
    });
    expect(revoke).toEqual({ status: 409, body: { code: "invitation_used", message: expect.any(String) } });
  });

  it("expired, revoked, unknown and foreign-email invitations are refused with distinct codes", async () => {
    const invitee = await h.user();
    const expired = await invite(invitee.email);
    await sql`update public.invitations set expires_at = now() - interval '1 second' where id = ${expired.id}`.execute(
      h.db.kysely,
    );
    expect(await accept(invitee, expired.token)).toEqual({
      status: 410,
      body: { code: "invitation_expired", message: expect.any(String) },
    });

    const revoked = await invite(invitee.email);
    const del = await callRoute(h, invitationRoute, {
      method: "DELETE",
      path: `/api/orgs/${a.orgId}/invitations/${revoked.id}`,
      params: { id: a.orgId, invId: revoked.id },
      token: a.users.admin.token,
    });
    expect(del.status).toBe(204);
    expect(await accept(invitee, revoked.token)).toEqual({
      status: 410,
      body: { code: "invitation_revoked", message: expect.any(String) },
    });

    expect(await accept(invitee, "x".repeat(43))).toEqual({
      status: 404,
      body: { code: "invitation_invalid", message: expect.any(String) },
    });

    const forSomeoneElse = await invite(`other-${randomUUID()}@example.test`);
    const stranger = await h.user();
    expect(await accept(stranger, forSomeoneElse.token)).toEqual({
      status: 403,
      body: { code: "invitation_email_mismatch", message: expect.any(String) },
    });
    expect(await accept(null, forSomeoneElse.token)).toEqual({
      status: 401,
      body: { code: "not_authenticated", message: expect.any(String) },
    });
    // None of these made the invitee or the stranger a member.
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from public.org_members where org_id = ${a.orgId} and user_id in (${invitee.id}, ${stranger.id})`.execute(
      h.db.kysely,
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("role escalation attempts are refused and change nothing", async () => {
    const w = await orgWithEveryRole(h, (db, m) => createOrg(db, m, { plan: "Clinic" }));
    const patchRole = (actor: ApiUser, userId: string, role: string) =>
      callRoute(h, memberRoute, {
        method: "PATCH",
        path: `/api/orgs/${w.orgId}/members/${userId}`,
        params: { id: w.orgId, userId },
        token: actor.token,
        body: { role },
      });
    expect((await patchRole(w.users.staff, w.users.staff.id, "owner")).body).toMatchObject({ code: "forbidden_role" });
    expect((await patchRole(w.users.clinician, w.users.clinician.id, "admin")).body).toMatchObject({ code: "forbidden_role" });
    expect((await patchRole(w.users.admin, w.users.admin.id, "owner")).body).toMatchObject({ code: "forbidden_role" });
    expect((await patchRole(w.users.admin, w.users.owner.id, "staff")).body).toMatchObject({ code: "forbidden_role" });
    const adminInvitesOwner = await callRoute(h, invitationsRoute, {
      method: "POST",
      path: `/api/orgs/${w.orgId}/invitations`,
      params: { id: w.orgId },
      token: w.users.admin.token,
      body: { email: "boss@example.test", role: "owner" },
    });
    expect(adminInvitesOwner).toEqual({ status: 403, body: { code: "forbidden_role", message: expect.any(String) } });
    // Tenant and role never come from the body.
    const smuggled = await callRoute(h, orgRoute, {
      method: "PATCH",
      path: `/api/orgs/${w.orgId}`,
      params: { id: w.orgId },
      token: w.users.admin.token,
      body: { name: "x", org_id: a.orgId, created_by: w.users.admin.id },
    });
    expect(smuggled.body).toMatchObject({ code: "validation_failed" });
    const { rows } = await sql<{ user_id: string; role: string }>`
      select user_id, role from public.org_members where org_id = ${w.orgId}`.execute(h.db.kysely);
    expect(Object.fromEntries(rows.map((r) => [r.role, r.user_id]))).toEqual({
      owner: w.users.owner.id,
      admin: w.users.admin.id,
      clinician: w.users.clinician.id,
      staff: w.users.staff.id,
    });
  });

  it("a member can leave; the last owner cannot; a second owner makes leaving possible", async () => {
    const w = await orgWithEveryRole(h, (db, m) => createOrg(db, m, { plan: "Clinic" }));
    const leave = (u: ApiUser) =>
      callRoute(h, memberRoute, {
        method: "DELETE",
        path: `/api/orgs/${w.orgId}/members/${u.id}`,
        params: { id: w.orgId, userId: u.id },
        token: u.token,
      });
    expect((await leave(w.users.staff)).status).toBe(204);
    expect(
      (
        await callRoute(h, orgRoute, {
          method: "GET",
          path: `/api/orgs/${w.orgId}`,
          params: { id: w.orgId },
          token: w.users.staff.token,
        })
      ).status,
    ).toBe(404);
    expect(await leave(w.users.owner)).toEqual({ status: 409, body: { code: "last_owner", message: expect.any(String) } });
    const promote = await callRoute(h, memberRoute, {
      method: "PATCH",
      path: `/api/orgs/${w.orgId}/members/${w.users.admin.id}`,
      params: { id: w.orgId, userId: w.users.admin.id },
      token: w.users.owner.token,
      body: { role: "owner" },
    });
    expect(promote.body).toEqual({ user_id: w.users.admin.id, role: "owner" });
    expect((await leave(w.users.owner)).status).toBe(204);
    const { rows } = await sql<{
      action: string;
    }>`select action from public.audit_log where org_id = ${w.orgId} order by id`.execute(h.db.kysely);
    expect(rows.map((r) => r.action)).toEqual(["member.left", "member.role_changed", "member.left"]);
  });

  it("GET /api/orgs/:id/members lists members with email and role", async () => {
    const res = await callRoute(h, membersRoute, {
      method: "GET",
      path: `/api/orgs/${a.orgId}/members`,
      params: { id: a.orgId },
      token: a.users.staff.token,
    });
    expect(res.status).toBe(200);
    const list = res.body as { user_id: string; email: string; role: string }[];
    expect(list.find((m) => m.user_id === a.users.owner.id)).toMatchObject({ email: a.users.owner.email, role: "owner" });
  });

  it("unknown and malformed ids, bad JSON, wrong shapes and wrong methods get stable 4xx codes", async () => {
    const owner = a.users.owner;
    const unknown = randomUUID();
    const bad = ["not-a-uuid", "1", "' or 1=1 --", `${a.orgId}x`, unknown];
    for (const id of bad) {
      for (const [mod, method, extra] of [
        [orgRoute, "GET", {}],
        [orgRoute, "PATCH", { body: { name: "x" } }],
        [membersRoute, "GET", {}],
        [memberRoute, "PATCH", { params: { userId: owner.id }, body: { role: "staff" } }],
        [memberRoute, "DELETE", { params: { userId: owner.id } }],
        [invitationsRoute, "POST", { body: { email: "a@example.test", role: "staff" } }],
        [invitationRoute, "DELETE", { params: { invId: unknown } }],
      ] as const) {
        const res = await callRoute(h, mod, {
          method,
          path: `/api/orgs/${encodeURIComponent(id)}`,
          token: owner.token,
          params: { id, ...("params" in extra ? extra.params : {}) },
          body: "body" in extra ? extra.body : undefined,
        });
        expect({ id, method, res }).toEqual({
          id,
          method,
          res: { status: 404, body: { code: "org_not_found", message: expect.any(String) } },
        });
      }
    }
    const member = (userId: string, method: "PATCH" | "DELETE") =>
      callRoute(h, memberRoute, {
        method,
        path: "/x",
        params: { id: a.orgId, userId },
        token: owner.token,
        body: method === "PATCH" ? { role: "staff" } : undefined,
      });
    expect((await member("nope", "PATCH")).body).toMatchObject({ code: "member_not_found" });
    expect((await member(unknown, "DELETE")).body).toMatchObject({ code: "member_not_found" });
    const revoke = (invId: string) =>
      callRoute(h, invitationRoute, { method: "DELETE", path: "/x", params: { id: a.orgId, invId }, token: owner.token });
    expect(await revoke("nope")).toEqual({ status: 404, body: { code: "invitation_not_found", message: expect.any(String) } });
    expect((await revoke(unknown)).body).toMatchObject({ code: "invitation_not_found" });

    const post = (body: unknown) => callRoute(h, orgsRoute, { method: "POST", path: "/api/orgs", token: owner.token, body });
    expect(await post("{not json")).toEqual({ status: 400, body: { code: "bad_json", message: expect.any(String) } });
    for (const body of [
      {},
      { name: "" },
      { name: "   " },
      { name: 42 },
      { name: "x".repeat(201) },
      [],
      "null",
      { name: "x", plan: "Clinic" },
    ]) {
      expect((await post(body)).body).toMatchObject({ code: "validation_failed" });
    }
    const patch = (body: unknown) =>
      callRoute(h, orgRoute, { method: "PATCH", path: "/x", params: { id: a.orgId }, token: owner.token, body });
    for (const body of [{}, { plan: "gold" }, { pms: "MacPractice" }, { timezone: "Mars/Olympus" }, { region: "!!" }]) {
      expect({ body, res: (await patch(body)).body }).toMatchObject({ body, res: { code: "validation_failed" } });
    }
    const inviteBody = (body: unknown) =>
      callRoute(h, invitationsRoute, { method: "POST", path: "/x", params: { id: a.orgId }, token: owner.token, body });
    for (const body of [
      { email: "nope", role: "staff" },
      { email: "a@example.test", role: "superuser" },
      { email: "a@example.test" },
    ]) {
      expect((await inviteBody(body)).body).toMatchObject({ code: "validation_failed" });
    }
    expect((await accept(owner, "short")).body).toMatchObject({ code: "validation_failed" });

    const wrong = [
      [orgsRoute, "DELETE"],
      [personalRoute, "GET"],
      [orgRoute, "POST"],
      [membersRoute, "POST"],
      [memberRoute, "GET"],
      [invitationsRoute, "PATCH"],
      [invitationRoute, "PATCH"],
      [acceptRoute, "GET"],
    ] as const;
    for (const [mod, method] of wrong) {
      const res = await callRoute(h, mod, { method, path: "/x", params: { id: a.orgId }, token: owner.token });
      expect(res).toEqual({ status: 405, body: { code: "method_not_allowed", message: "Method Not Allowed" } });
    }
  });

  it("authentication: bad, revoked and missing tokens are 401; the session cookie user works; the URL id beats x-org-id", async () => {
    const getA = (init: {
      token?: string | null;
      headers?: Record<string, string>;
      user?: { id: string; email: string; mfaRequired?: boolean };
    }) => {
      const context = h.context();
      if (init.user) context.set(userContext, init.user);
      return callRoute(h, orgRoute, {
        method: "GET",
        path: `/api/orgs/${a.orgId}`,
        params: { id: a.orgId },
        token: init.token,
        headers: init.headers,
        context,
      });
    };
    const unauthenticated = { status: 401, body: { code: "not_authenticated", message: expect.any(String) } };
    expect(await getA({})).toEqual(unauthenticated);
    expect(await getA({ token: "not.a.jwt" })).toEqual(unauthenticated);
    expect(await getA({ headers: { authorization: "Basic abc" } })).toEqual(unauthenticated);
    // A character in the middle of the signature (the last one may only carry padding bits).
    const t = a.users.clinician.token;
    const at = t.length - 10;
    const tampered = `${t.slice(0, at)}${t[at] === "A" ? "B" : "A"}${t.slice(at + 1)}`;
    expect(await getA({ token: tampered })).toEqual(unauthenticated);
    // A token whose session was signed out stops at once.
    const leaver = await h.user();
    await sql`insert into public.org_members (org_id, user_id, role) values (${a.orgId}, ${leaver.id}, 'staff')`.execute(
      h.db.kysely,
    );
    expect((await getA({ token: leaver.token })).status).toBe(200);
    await sql`delete from auth.sessions where id = ${leaver.sessionId}`.execute(h.db.kysely);
    expect(await getA({ token: leaver.token })).toEqual(unauthenticated);
    // Cookie sessions, resolved by the session middleware into userContext.
    expect((await getA({ user: { id: a.users.staff.id, email: a.users.staff.email } })).body).toMatchObject({
      id: a.orgId,
      role: "staff",
    });
    expect(await getA({ user: { id: a.users.staff.id, email: a.users.staff.email, mfaRequired: true } })).toEqual(
      unauthenticated,
    );
    // SPEC §7 x-org-id: for /api/orgs/:id the URL wins, a mismatching header is ignored.
    const other = await createOrg(h.db, [{ userId: a.users.admin.id, role: "owner" }]);
    expect((await getA({ token: a.users.admin.token, headers: { "x-org-id": other } })).body).toMatchObject({
      id: a.orgId,
      role: "admin",
    });
  });

  it("the plan's member limit counts pending invitations: a third seat on the trial is 409 member_limit_reached until one is revoked", async () => {
    const owner = await h.user();
    const orgId = await createOrg(h.db, [{ userId: owner.id, role: "owner" }]);
    const as = { db: h.db, actor: { userId: owner.id }, orgId };
    const first = await createInvitation({ ...as, email: `a-${randomUUID()}@example.test`, role: "clinician" });
    await createInvitation({ ...as, email: `b-${randomUUID()}@example.test`, role: "staff" });
    await expect(createInvitation({ ...as, email: `c-${randomUUID()}@example.test`, role: "staff" })).rejects.toMatchObject({
      status: 409,
      code: "member_limit_reached",
    });
    await revokeInvitation({ ...as, invitationId: first.id });
    await expect(createInvitation({ ...as, email: `c-${randomUUID()}@example.test`, role: "staff" })).resolves.toMatchObject({
      id: expect.any(String),
    });
    await sql`update public.organizations set plan = 'Clinic' where id = ${orgId}`.execute(h.db.kysely);
    await expect(createInvitation({ ...as, email: `d-${randomUUID()}@example.test`, role: "staff" })).resolves.toBeTruthy();
  });
});
