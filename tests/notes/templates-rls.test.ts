import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Actor, withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrgWithEveryRole } from "#tests/setup/orgs.ts";

// 0011_note_templates.sql under row-level security as murmur_app (never a superuser): members
// read the organisation's templates and only their own personal ones; only owners and admins
// write organisation templates; a member writes only their own; rows are archived, never deleted.
describeEachDatabase("note templates under row-level security", (target) => {
  let db: Database;
  let a: { orgId: string; users: Record<OrgRole, string> };
  let b: { orgId: string; users: Record<OrgRole, string> };
  const ids = { orgA: "", clinicianA: "", staffA: "", orgB: "" };
  const sections = JSON.stringify([
    { key: "plan", title: "Plan", kind: "plan", header: "always", style: "prose", verbosity: "standard", persistent: false },
  ]);

  async function seed(orgId: string, owner: string | null, name: string): Promise<string> {
    const { rows } = await sql<{ id: string }>`
      insert into public.note_templates (org_id, owner_user_id, name, language, sections)
      values (${orgId}, ${owner}, ${name}, 'en', ${sections}::jsonb) returning id`.execute(db.kysely);
    return rows[0]?.id ?? "";
  }

  beforeAll(async () => {
    db = await target.open();
    a = await createOrgWithEveryRole(db);
    b = await createOrgWithEveryRole(db);
    ids.orgA = await seed(a.orgId, null, "Org A");
    ids.clinicianA = await seed(a.orgId, a.users.clinician, "Clinician A");
    ids.staffA = await seed(a.orgId, a.users.staff, "Staff A");
    ids.orgB = await seed(b.orgId, null, "Org B");
  });

  afterAll(async () => {
    await db.close();
  });

  const inA = (role: OrgRole): Actor => ({ userId: a.users[role], orgId: a.orgId });
  const visibleNames = (actor: Actor) =>
    withActor(db, actor, async (trx) =>
      (await trx.selectFrom("note_templates").select("name").orderBy("name").execute()).map((r) => r.name),
    );
  const insert = (actor: Actor, orgId: string, owner: string | null) =>
    withActor(db, actor, (trx) =>
      trx
        .insertInto("note_templates")
        .values({ org_id: orgId, owner_user_id: owner, name: "New", language: "en", sections: sql<string>`${sections}::jsonb` })
        .execute(),
    );
  const rename = async (actor: Actor, id: string) =>
    (
      await withActor(db, actor, (trx) =>
        trx.updateTable("note_templates").set({ name: "Renamed" }).where("id", "=", id).executeTakeFirst(),
      )
    ).numUpdatedRows;

  it("every member reads the organisation's templates and only their own personal ones", async () => {
    expect(await visibleNames(inA("clinician"))).toEqual(["Clinician A", "Org A"]);
    expect(await visibleNames(inA("staff"))).toEqual(["Org A", "Staff A"]);
    expect(await visibleNames(inA("owner"))).toEqual(["Org A"]);
    expect(await visibleNames(inA("admin"))).toEqual(["Org A"]);
    expect(await visibleNames({ userId: null, orgId: null })).toEqual([]);
  });

  it("only owners and admins write organisation templates", async () => {
    await expect(insert(inA("clinician"), a.orgId, null)).rejects.toThrow(/row-level security/);
    await expect(insert(inA("staff"), a.orgId, null)).rejects.toThrow(/row-level security/);
    await expect(insert(inA("admin"), a.orgId, null)).resolves.toBeDefined();
    expect(await rename(inA("clinician"), ids.orgA)).toBe(0n);
    expect(await rename(inA("staff"), ids.orgA)).toBe(0n);
    expect(await rename(inA("owner"), ids.orgA)).toBe(1n);
  });

  it("a member writes only their own personal templates", async () => {
    await expect(insert(inA("clinician"), a.orgId, a.users.clinician)).resolves.toBeDefined();
    await expect(insert(inA("clinician"), a.orgId, a.users.staff)).rejects.toThrow(/row-level security/);
    await expect(insert(inA("owner"), a.orgId, a.users.staff)).rejects.toThrow(/row-level security/);
    expect(await rename(inA("staff"), ids.clinicianA)).toBe(0n);
    expect(await rename(inA("owner"), ids.clinicianA)).toBe(0n);
    expect(await rename(inA("clinician"), ids.clinicianA)).toBe(1n);
  });

  it("a personal template cannot be turned into an organisation one by a member, nor given away", async () => {
    await expect(
      withActor(db, inA("staff"), (trx) =>
        sql`update public.note_templates set owner_user_id = null where id = ${ids.staffA}`.execute(trx),
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      withActor(db, inA("staff"), (trx) =>
        sql`update public.note_templates set owner_user_id = ${a.users.clinician} where id = ${ids.staffA}`.execute(trx),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it("another organisation's templates are invisible and untouchable; nothing is ever deleted", async () => {
    expect(await visibleNames({ userId: b.users.owner, orgId: b.orgId })).toEqual(["Org B"]);
    expect(await rename(inA("owner"), ids.orgB)).toBe(0n);
    await expect(insert(inA("owner"), b.orgId, null)).rejects.toThrow(/row-level security/);
    await expect(insert(inA("owner"), b.orgId, a.users.owner)).rejects.toThrow(/row-level security/);
    await expect(
      withActor(db, inA("owner"), (trx) => trx.deleteFrom("note_templates").where("id", "=", ids.orgA).execute()),
    ).rejects.toThrow(/permission denied/);
  });
});
