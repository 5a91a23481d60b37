import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { AUDIT_PAGE_SIZE, type AuditFilters, listAuditLog } from "#app/services/orgs/audit-log.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser, createOrg, createOrgWithEveryRole } from "#tests/setup/orgs.ts";

// Issue 4: "Owners and admins see the audit log (filter by actor, action, date)". The service reads
// as the actor under row-level security; rows are planted through the owner connection with chosen
// times so the filters and the paging can be checked exactly.

describeEachDatabase("audit log service", (target) => {
  let db: Database;
  let a: { orgId: string; users: Record<OrgRole, string> };
  let b: { orgId: string; users: Record<OrgRole, string> };

  beforeAll(async () => {
    db = await target.open();
    a = await createOrgWithEveryRole(db);
    b = await createOrgWithEveryRole(db);
  });

  afterAll(async () => {
    await db.close();
  });

  /** Plants an audit row as the owner connection would (setup only). */
  async function plant(orgId: string, actorId: string | null, action: string, at: string, details: Record<string, unknown> = {}) {
    const row = await db.kysely
      .insertInto("audit_log")
      .values({
        org_id: orgId,
        actor_id: actorId,
        action,
        entity: "organization",
        entity_id: orgId,
        at: new Date(at),
        ip: "203.0.113.7",
        details: sql<Record<string, unknown>>`${JSON.stringify(details)}::jsonb`,
      })
      .returning(sql<string>`id::text`.as("id"))
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const list = (userId: string, orgId: string, filters: AuditFilters = {}, limit?: number) =>
    listAuditLog({ db, actor: { userId }, orgId, filters, limit });

  /** A fresh organisation in New York time with a known trail. */
  async function trail() {
    const org = await createOrgWithEveryRole(db);
    await sql`update public.organizations set timezone = 'America/New_York' where id = ${org.orgId}`.execute(db.kysely);
    const ids = {
      // 9 March, 23:30 in New York — already 10 March in UTC.
      lateOn9th: await plant(org.orgId, org.users.owner, "org.updated", "2024-03-10T04:30:00Z", {
        changes: { name: { from: "A", to: "B" } },
      }),
      on10th: await plant(org.orgId, org.users.admin, "member.role_changed", "2024-03-10T15:00:00Z", {
        from: "staff",
        to: "clinician",
      }),
      lateOn10th: await plant(org.orgId, org.users.owner, "invitation.created", "2024-03-11T03:59:00Z", {
        email: "x@example.test",
      }),
      on11th: await plant(org.orgId, org.users.admin, "org.updated", "2024-03-11T04:00:00Z"),
    };
    return { org, ids };
  }

  it("lists newest first with the actor's email; owners and admins see the same trail", async () => {
    const { org, ids } = await trail();
    const owner = await list(org.users.owner, org.orgId);
    expect(owner.entries.map((e) => e.id)).toEqual([ids.on11th, ids.lateOn10th, ids.on10th, ids.lateOn9th]);
    expect(owner.next).toBeNull();
    expect(owner.timezone).toBe("America/New_York");
    expect(owner.entries[2]).toMatchObject({
      action: "member.role_changed",
      actor_id: org.users.admin,
      actor_email: expect.stringMatching(/@example\.test$/),
      ip: "203.0.113.7",
      details: { from: "staff", to: "clinician" },
      at: "2024-03-10T15:00:00.000Z",
    });
    expect(owner.members.map((m) => m.user_id).sort()).toEqual(Object.values(org.users).sort());
    expect((await list(org.users.admin, org.orgId)).entries.map((e) => e.id)).toEqual(owner.entries.map((e) => e.id));
  });

  it("filters by actor, by action and by days in the organisation's time zone, alone and together", async () => {
    const { org, ids } = await trail();
    const idsOf = async (filters: AuditFilters) => (await list(org.users.owner, org.orgId, filters)).entries.map((e) => e.id);
    expect(await idsOf({ actorId: org.users.admin })).toEqual([ids.on11th, ids.on10th]);
    expect(await idsOf({ actorId: org.users.staff })).toEqual([]);
    expect(await idsOf({ action: "org.updated" })).toEqual([ids.on11th, ids.lateOn9th]);
    expect(await idsOf({ action: "member.left" })).toEqual([]);
    expect(await idsOf({ from: "2024-03-10", to: "2024-03-10" })).toEqual([ids.lateOn10th, ids.on10th]);
    expect(await idsOf({ to: "2024-03-09" })).toEqual([ids.lateOn9th]);
    expect(await idsOf({ from: "2024-03-11" })).toEqual([ids.on11th]);
    expect(await idsOf({ from: "2024-03-12" })).toEqual([]);
    expect(await idsOf({ actorId: org.users.owner, from: "2024-03-10" })).toEqual([ids.lateOn10th]);
    expect(await idsOf({ actorId: org.users.admin, action: "org.updated", from: "2024-03-09", to: "2024-03-11" })).toEqual([
      ids.on11th,
    ]);
  });

  it("pages with a keyset cursor: no row twice or missed, even with equal times and rows added between pages", async () => {
    const org = await createOrgWithEveryRole(db);
    const planted: string[] = [];
    for (let i = 0; i < 2 * AUDIT_PAGE_SIZE + 20; i++) {
      // Groups of three share a timestamp, as rows written in one transaction do.
      const at = new Date(Date.UTC(2024, 0, 1) + Math.floor(i / 3) * 1000).toISOString();
      planted.push(await plant(org.orgId, org.users.owner, "org.updated", at));
    }
    const newestFirst = [...planted].reverse();
    const first = await list(org.users.admin, org.orgId);
    expect(first.entries.map((e) => e.id)).toEqual(newestFirst.slice(0, AUDIT_PAGE_SIZE));
    expect(first.next).toBe(newestFirst[AUDIT_PAGE_SIZE - 1]);
    await plant(org.orgId, org.users.owner, "org.updated", new Date().toISOString());
    const second = await list(org.users.admin, org.orgId, { before: first.next ?? "" });
    expect(second.entries.map((e) => e.id)).toEqual(newestFirst.slice(AUDIT_PAGE_SIZE, 2 * AUDIT_PAGE_SIZE));
    const third = await list(org.users.admin, org.orgId, { before: second.next ?? "" });
    expect(third.entries.map((e) => e.id)).toEqual(newestFirst.slice(2 * AUDIT_PAGE_SIZE));
    expect(third.next).toBeNull();
    // Filters apply on every page.
    const small = await list(org.users.owner, org.orgId, { action: "org.updated", to: "2024-01-01" }, 7);
    expect(small.entries).toHaveLength(7);
    const rest = await list(
      org.users.owner,
      org.orgId,
      { action: "org.updated", to: "2024-01-01", before: small.next ?? "" },
      200,
    );
    expect(rest.entries).toHaveLength(2 * AUDIT_PAGE_SIZE + 20 - 7);
  });

  it("a cursor from another organisation's trail names nothing here", async () => {
    const bRow = await plant(b.orgId, b.users.owner, "org.updated", "2030-01-01T00:00:00Z");
    await plant(a.orgId, a.users.owner, "org.updated", "2020-01-01T00:00:00Z");
    expect((await list(a.users.owner, a.orgId)).entries.length).toBeGreaterThan(0);
    expect((await list(a.users.owner, a.orgId, { before: bRow })).entries).toEqual([]);
  });

  it("clinicians and staff get 403 forbidden_role; a member of another organisation or a bad id gets 404", async () => {
    await plant(a.orgId, a.users.owner, "org.updated", "2024-06-01T12:00:00Z");
    for (const role of ["clinician", "staff"] as const) {
      await expect(list(a.users[role], a.orgId), role).rejects.toMatchObject({ status: 403, code: "forbidden_role" });
    }
    await expect(list(b.users.owner, a.orgId)).rejects.toMatchObject({ status: 404, code: "org_not_found" });
    await expect(list(a.users.owner, "not-a-uuid")).rejects.toMatchObject({ status: 404, code: "org_not_found" });
    const stranger = await createAuthUser(db);
    await expect(list(stranger.id, a.orgId)).rejects.toMatchObject({ status: 404, code: "org_not_found" });
  });

  it("row-level security: only A's owners and admins select A's rows, as the app role", async () => {
    await plant(a.orgId, a.users.admin, "member.removed", "2024-06-02T12:00:00Z");
    const count = (userId: string) =>
      withActor(db, { userId, orgId: a.orgId }, async (trx) => {
        const row = await trx
          .selectFrom("audit_log")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("org_id", "=", a.orgId)
          .executeTakeFirstOrThrow();
        return Number(row.n);
      });
    expect(await count(a.users.owner)).toBeGreaterThan(0);
    expect(await count(a.users.admin)).toBe(await count(a.users.owner));
    expect(await count(a.users.clinician)).toBe(0);
    expect(await count(a.users.staff)).toBe(0);
    expect(await count(b.users.owner)).toBe(0);
    const { rows } = await withActor(db, { userId: a.users.owner, orgId: a.orgId }, (trx) =>
      sql<{ user: string }>`select current_user as user`.execute(trx),
    );
    expect(rows[0]?.user).toBe("murmur_app");
  });

  it("an actor who has left shows without an email; the entries stay", async () => {
    const leaver = await createAuthUser(db);
    const org = await createOrg(db, [
      { userId: a.users.owner, role: "owner" },
      { userId: leaver.id, role: "admin" },
    ]);
    const id = await plant(org, leaver.id, "org.updated", "2024-06-03T12:00:00Z");
    expect((await list(a.users.owner, org)).entries.find((e) => e.id === id)?.actor_email).toBe(leaver.email);
    await sql`delete from public.org_members where org_id = ${org} and user_id = ${leaver.id}`.execute(db.kysely);
    const after = await list(a.users.owner, org, { actorId: leaver.id });
    expect(after.entries.map((e) => [e.id, e.actor_email])).toEqual([[id, null]]);
    expect(after.members.map((m) => m.user_id)).not.toContain(leaver.id);
  });
});
