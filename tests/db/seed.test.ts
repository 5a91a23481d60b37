import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import { DEMO_ORG_SLUG, DEMO_USERS, organizationsSeeder } from "#app/db/seed/organizations.server.ts";
import { runSeeders } from "#app/db/seed/run.server.ts";
import { visitsSeeder } from "#app/db/seed/visits.server.ts";
import { verifyPassword } from "#app/services/auth/passwords.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";

// `npm run seed`: demo data a practice can click through, and safe to run twice.
describeEachDatabase("demo seed", (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
    // The demo slug is global: start from no demo practice on a shared PostgreSQL.
    await sql`delete from public.organizations where slug = ${DEMO_ORG_SLUG}`.execute(db.kysely);
    await sql`delete from auth.users where email like '%@demo.murmur.test'`.execute(db.kysely);
  });
  afterAll(async () => {
    await db.close();
  });

  it("creates one practice with a member per role, sign-in passwords, a pending invitation; a second run changes nothing", async () => {
    const seeder = organizationsSeeder("Seed-Test-Password-1");
    const [first] = await runSeeders(db, [seeder]);
    expect(first).toContain("demo practice created with 4 members");
    const [second] = await runSeeders(db, [seeder]);
    expect(second).toBe("organisations: demo practice already present; 0 account(s) added");

    const members = await sql<{ email: string; role: string; encrypted_password: string; pms: string; kind: string }>`
      select u.email, m.role, u.encrypted_password, o.pms, o.kind
      from public.organizations o join public.org_members m on m.org_id = o.id join auth.users u on u.id = m.user_id
      where o.slug = ${DEMO_ORG_SLUG} order by u.email`.execute(db.kysely);
    expect(members.rows.map((r) => [r.email, r.role]).sort()).toEqual(DEMO_USERS.map((u) => [u.email, u.role]).sort());
    expect(members.rows.every((r) => r.pms === "macpractice" && r.kind === "practice")).toBe(true);
    const plan = await sql<{ plan: string }>`select plan from public.organizations where slug = ${DEMO_ORG_SLUG}`.execute(
      db.kysely,
    );
    // Four members and an invitation: the Practice plan's limit, not the trial's, holds them.
    expect(plan.rows[0]?.plan).toBe("practice");
    expect(await verifyPassword("Seed-Test-Password-1", members.rows[0]?.encrypted_password ?? null)).toBe(true);
    const invitations = await sql<{ n: number }>`
      select count(*)::int as n from public.invitations i join public.organizations o on o.id = i.org_id
      where o.slug = ${DEMO_ORG_SLUG} and i.accepted_at is null`.execute(db.kysely);
    expect(invitations.rows[0]?.n).toBe(1);
  });

  it("adds a demo patient with a transcribed visit and a draft SOAP note whose sentences carry evidence; a second run changes nothing", async () => {
    expect(await runSeeders(db, [visitsSeeder()])).toEqual([
      "visits: demo patient Jane Doe with a transcribed visit and a draft SOAP note",
    ]);
    expect(await runSeeders(db, [visitsSeeder()])).toEqual(["visits: demo patient already present"]);
    const notes = await sql<{ status: string; content: { sentences?: { evidence: unknown[] }[] }[]; visit_status: string }>`
      select n.status, n.sections as content, v.status as visit_status
      from public.notes n join public.visits v on v.id = n.visit_id join public.organizations o on o.id = n.org_id
      where o.slug = ${DEMO_ORG_SLUG}`.execute(db.kysely);
    expect(notes.rows).toHaveLength(1);
    expect(notes.rows[0]).toMatchObject({ status: "draft", visit_status: "transcribed" });
    const sentences = (notes.rows[0]?.content ?? []).flatMap((section) => section.sentences ?? []);
    expect(sentences.length).toBeGreaterThan(5);
    expect(sentences.filter((s) => s.evidence.length > 0).length).toBeGreaterThan(5);
  });
});
