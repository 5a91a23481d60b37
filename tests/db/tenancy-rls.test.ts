import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Actor, withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser, createOrg, createOrgWithEveryRole } from "#tests/setup/orgs.ts";

// Issue 4 "Proof": the organisation tables' policies, exercised as murmur_app through withActor
// (never as a superuser) for each role of org A, a user of org B and an anonymous caller.
describeEachDatabase("organisation tenancy under row-level security", (target) => {
  let db: Database;
  let a: { orgId: string; users: Record<OrgRole, string> };
  let b: { orgId: string; users: Record<OrgRole, string> };

  beforeAll(async () => {
    db = await target.open();
    a = await createOrgWithEveryRole(db);
    b = await createOrgWithEveryRole(db);
    await sql`insert into public.invitations (org_id, email, role, token_hash, invited_by) values
      (${a.orgId}, 'invitee-a@example.test', 'staff', ${randomUUID()}, ${a.users.owner}),
      (${b.orgId}, 'invitee-b@example.test', 'staff', ${randomUUID()}, ${b.users.owner})`.execute(db.kysely);
    await sql`insert into public.audit_log (org_id, actor_id, action) values
      (${a.orgId}, ${a.users.owner}, 'seed.a'), (${b.orgId}, ${b.users.owner}, 'seed.b')`.execute(db.kysely);
  });

  afterAll(async () => {
    await db.close();
  });

  const inA = (role: OrgRole): Actor => ({ userId: a.users[role], orgId: a.orgId });
  const anonymous: Actor = { userId: null, orgId: null };

  /** Which organisations' rows of each table the actor can read. */
  const visibleOrgIds = (actor: Actor) =>
    withActor(db, actor, async (trx) => ({
      organizations: (await trx.selectFrom("organizations").select("id").execute()).map((r) => r.id),
      org_members: [...new Set((await trx.selectFrom("org_members").select("org_id").execute()).map((r) => r.org_id))],
      invitations: [...new Set((await trx.selectFrom("invitations").select("org_id").execute()).map((r) => r.org_id))],
      audit_log: [...new Set((await trx.selectFrom("audit_log").select("org_id").execute()).map((r) => r.org_id))],
    }));

  it("positive control: an owner sees their organisation, its members, invitations and audit log", async () => {
    expect(await visibleOrgIds(inA("owner"))).toEqual({
      organizations: [a.orgId],
      org_members: [a.orgId],
      invitations: [a.orgId],
      audit_log: [a.orgId],
    });
    const members = await withActor(db, inA("staff"), (trx) =>
      trx.selectFrom("org_members").select(["user_id", "role"]).where("org_id", "=", a.orgId).orderBy("role").execute(),
    );
    expect(members).toEqual([
      { user_id: a.users.admin, role: "admin" },
      { user_id: a.users.clinician, role: "clinician" },
      { user_id: a.users.owner, role: "owner" },
      { user_id: a.users.staff, role: "staff" },
    ]);
  });

  it("clinicians and staff see the organisation and its members but not invitations or the audit log", async () => {
    for (const role of ["clinician", "staff"] as const) {
      expect(await visibleOrgIds(inA(role))).toEqual({
        organizations: [a.orgId],
        org_members: [a.orgId],
        invitations: [],
        audit_log: [],
      });
    }
  });

  it("no role of org A sees a single row of org B, even when asking for it by id", async () => {
    for (const role of ["owner", "admin", "clinician", "staff"] as const) {
      const seen = await withActor(db, inA(role), async (trx) => [
        ...(await trx.selectFrom("organizations").select("id").where("id", "=", b.orgId).execute()),
        ...(await trx.selectFrom("org_members").select("org_id").where("org_id", "=", b.orgId).execute()),
        ...(await trx.selectFrom("invitations").select("id").where("org_id", "=", b.orgId).execute()),
        ...(await trx.selectFrom("audit_log").select("id").where("org_id", "=", b.orgId).execute()),
      ]);
      expect(seen).toEqual([]);
    }
    // The current-organisation setting does not widen access: membership decides.
    expect(await visibleOrgIds({ userId: a.users.owner, orgId: b.orgId })).toEqual(await visibleOrgIds(inA("owner")));
  });

  it("anonymous callers see nothing", async () => {
    expect(await visibleOrgIds(anonymous)).toEqual({ organizations: [], org_members: [], invitations: [], audit_log: [] });
    expect(await visibleOrgIds({ userId: randomUUID(), orgId: a.orgId })).toEqual({
      organizations: [],
      org_members: [],
      invitations: [],
      audit_log: [],
    });
  });

  it("inserts into another organisation are rejected", async () => {
    await expect(
      withActor(db, inA("owner"), (trx) =>
        trx
          .insertInto("invitations")
          .values({ org_id: b.orgId, email: "x@example.test", role: "staff", token_hash: randomUUID() })
          .execute(),
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      withActor(db, inA("staff"), (trx) =>
        trx.insertInto("audit_log").values({ org_id: b.orgId, actor_id: a.users.staff, action: "smuggled" }).execute(),
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      withActor(db, inA("owner"), (trx) =>
        trx.insertInto("org_members").values({ org_id: b.orgId, user_id: a.users.owner, role: "owner" }).execute(),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it("updates and deletes cannot reach another organisation", async () => {
    const affected = await withActor(db, inA("owner"), async (trx) => {
      const org = await trx.updateTable("organizations").set({ name: "Taken" }).where("id", "=", b.orgId).executeTakeFirst();
      const member = await trx.deleteFrom("org_members").where("org_id", "=", b.orgId).executeTakeFirst();
      const invitation = await trx.deleteFrom("invitations").where("org_id", "=", b.orgId).executeTakeFirst();
      return [org.numUpdatedRows, member.numDeletedRows, invitation.numDeletedRows].map(Number);
    });
    expect(affected).toEqual([0, 0, 0]);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from public.org_members where org_id = ${b.orgId}`.execute(db.kysely);
    expect(rows[0]?.n).toBe(4);
  });

  it("organisations are created through functions only", async () => {
    await expect(
      withActor(db, inA("owner"), (trx) =>
        sql`insert into public.organizations (name, slug, kind) values ('Direct', ${`direct-${randomUUID().slice(0, 8)}`}, 'practice')`.execute(
          trx,
        ),
      ),
    ).rejects.toThrow(/permission denied/);
  });

  it("invitations: owners and admins create them, clinicians and staff cannot, admins cannot invite owners", async () => {
    const invite = (role: OrgRole, invitedRole: OrgRole) =>
      withActor(db, inA(role), (trx) =>
        trx
          .insertInto("invitations")
          .values({
            org_id: a.orgId,
            email: `${randomUUID()}@example.test`,
            role: invitedRole,
            token_hash: randomUUID(),
            invited_by: a.users[role],
          })
          .returning("id")
          .executeTakeFirstOrThrow(),
      );
    await expect(invite("admin", "clinician")).resolves.toHaveProperty("id");
    await expect(invite("owner", "owner")).resolves.toHaveProperty("id");
    await expect(invite("staff", "staff")).rejects.toThrow(/row-level security/);
    await expect(invite("clinician", "staff")).rejects.toThrow(/row-level security/);
    await expect(invite("admin", "owner")).rejects.toThrow(/row-level security/);
  });

  it("members: clinicians and staff cannot change them; admins manage non-owners only", async () => {
    const target = await createOrgWithEveryRole(db);
    const as = (role: OrgRole): Actor => ({ userId: target.users[role], orgId: target.orgId });
    const setRole = (actor: Actor, userId: string, role: OrgRole) =>
      withActor(db, actor, async (trx) =>
        Number(
          (
            await trx
              .updateTable("org_members")
              .set({ role })
              .where("org_id", "=", target.orgId)
              .where("user_id", "=", userId)
              .executeTakeFirst()
          ).numUpdatedRows,
        ),
      );
    const remove = (actor: Actor, userId: string) =>
      withActor(db, actor, async (trx) =>
        Number(
          (
            await trx
              .deleteFrom("org_members")
              .where("org_id", "=", target.orgId)
              .where("user_id", "=", userId)
              .executeTakeFirst()
          ).numDeletedRows,
        ),
      );
    const outsider = (await createAuthUser(db)).id;

    expect(await setRole(as("clinician"), target.users.staff, "admin")).toBe(0);
    expect(await remove(as("clinician"), target.users.staff)).toBe(0);
    expect(await setRole(as("staff"), target.users.staff, "owner")).toBe(0);
    await expect(
      withActor(db, as("clinician"), (trx) =>
        trx.insertInto("org_members").values({ org_id: target.orgId, user_id: outsider, role: "staff" }).execute(),
      ),
    ).rejects.toThrow(/row-level security/);

    expect(await setRole(as("admin"), target.users.staff, "clinician")).toBe(1);
    expect(await setRole(as("admin"), target.users.owner, "staff")).toBe(0);
    await expect(setRole(as("admin"), target.users.clinician, "owner")).rejects.toThrow(/row-level security/);
    expect(await remove(as("admin"), target.users.owner)).toBe(0);
    await expect(
      withActor(db, as("admin"), (trx) =>
        trx.insertInto("org_members").values({ org_id: target.orgId, user_id: outsider, role: "staff" }).execute(),
      ),
    ).resolves.toBeDefined();
    expect(await remove(as("admin"), outsider)).toBe(1);

    // Any member can leave.
    expect(await remove(as("clinician"), target.users.clinician)).toBe(1);
  });

  it("the last owner cannot be removed or demoted; with a second owner they can", async () => {
    const owner = (await createAuthUser(db)).id;
    const second = (await createAuthUser(db)).id;
    const orgId = await createOrg(db, [
      { userId: owner, role: "owner" },
      { userId: second, role: "clinician" },
    ]);
    const actor: Actor = { userId: owner, orgId };
    await expect(
      withActor(db, actor, (trx) =>
        trx.updateTable("org_members").set({ role: "admin" }).where("org_id", "=", orgId).where("user_id", "=", owner).execute(),
      ),
    ).rejects.toThrow(/at least one owner/);
    await expect(
      withActor(db, actor, (trx) =>
        trx.deleteFrom("org_members").where("org_id", "=", orgId).where("user_id", "=", owner).execute(),
      ),
    ).rejects.toThrow(/at least one owner/);

    await withActor(db, actor, (trx) =>
      trx.updateTable("org_members").set({ role: "owner" }).where("org_id", "=", orgId).where("user_id", "=", second).execute(),
    );
    await withActor(db, actor, (trx) =>
      trx.deleteFrom("org_members").where("org_id", "=", orgId).where("user_id", "=", owner).execute(),
    );
    const { rows } = await sql<{ user_id: string; role: string }>`
      select user_id, role from public.org_members where org_id = ${orgId}`.execute(db.kysely);
    expect(rows).toEqual([{ user_id: second, role: "owner" }]);
  });

  it("only an owner changes the plan; admins edit the rest; only owners delete the organisation", async () => {
    const target = await createOrgWithEveryRole(db);
    const as = (role: OrgRole): Actor => ({ userId: target.users[role], orgId: target.orgId });
    await expect(
      withActor(db, as("admin"), (trx) =>
        trx.updateTable("organizations").set({ plan: "Clinic" }).where("id", "=", target.orgId).execute(),
      ),
    ).rejects.toThrow(/only an owner can change the plan/);
    const renamed = await withActor(db, as("admin"), (trx) =>
      trx
        .updateTable("organizations")
        .set({ name: "Renamed", pms: "macpractice" })
        .where("id", "=", target.orgId)
        .returning(["name", "pms", "plan"])
        .execute(),
    );
    expect(renamed).toEqual([{ name: "Renamed", pms: "macpractice", plan: "trial" }]);
    expect(
      await withActor(db, as("clinician"), async (trx) =>
        Number(
          (await trx.updateTable("organizations").set({ name: "Nope" }).where("id", "=", target.orgId).executeTakeFirst())
            .numUpdatedRows,
        ),
      ),
    ).toBe(0);
    const plan = await withActor(db, as("owner"), (trx) =>
      trx.updateTable("organizations").set({ plan: "Clinic" }).where("id", "=", target.orgId).returning("plan").execute(),
    );
    expect(plan).toEqual([{ plan: "Clinic" }]);

    const deletedBy = (role: OrgRole) =>
      withActor(db, as(role), async (trx) =>
        Number((await trx.deleteFrom("organizations").where("id", "=", target.orgId).executeTakeFirst()).numDeletedRows),
      );
    expect(await deletedBy("admin")).toBe(0);
    // Deleting the organisation removes its members and invitations, the last owner included.
    expect(await deletedBy("owner")).toBe(1);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from public.org_members where org_id = ${target.orgId}`.execute(db.kysely);
    expect(rows[0]?.n).toBe(0);
  });

  it("the audit log: members append their own entries, owners and admins read, nobody rewrites", async () => {
    await withActor(db, inA("staff"), (trx) =>
      trx
        .insertInto("audit_log")
        .values({ org_id: a.orgId, actor_id: a.users.staff, action: "visit.create", entity: "visit", entity_id: "v1" })
        .execute(),
    );
    await expect(
      withActor(db, inA("staff"), (trx) =>
        trx.insertInto("audit_log").values({ org_id: a.orgId, actor_id: a.users.owner, action: "forged" }).execute(),
      ),
    ).rejects.toThrow(/row-level security/);
    const actions = await withActor(db, inA("admin"), (trx) =>
      trx.selectFrom("audit_log").select("action").where("org_id", "=", a.orgId).orderBy("id").execute(),
    );
    expect(actions.map((r) => r.action)).toEqual(expect.arrayContaining(["seed.a", "visit.create"]));

    await expect(
      withActor(db, inA("owner"), (trx) =>
        sql`update public.audit_log set action = 'rewritten' where org_id = ${a.orgId}`.execute(trx),
      ),
    ).rejects.toThrow(/permission denied/);
    await expect(
      withActor(db, inA("owner"), (trx) => sql`delete from public.audit_log where org_id = ${a.orgId}`.execute(trx)),
    ).rejects.toThrow(/permission denied/);
    // The owner connection is refused too, by the trigger.
    await expect(
      sql`update public.audit_log set action = 'rewritten' where org_id = ${a.orgId}`.execute(db.kysely),
    ).rejects.toThrow(/append-only/);
    await expect(sql`delete from public.audit_log where org_id = ${a.orgId}`.execute(db.kysely)).rejects.toThrow(/append-only/);
  });
});
