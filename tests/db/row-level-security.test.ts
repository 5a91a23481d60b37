import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";

// The mechanism later policies rely on: queries through withActor run as murmur_app, which
// row-level security cannot be bypassed by, with the actor set only for that transaction.
describeEachDatabase("row-level security through withActor", (target) => {
  let db: Database;
  const table = `rls_probe_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const orgA = randomUUID();
  const orgB = randomUUID();
  const userA = randomUUID();

  beforeAll(async () => {
    db = await target.open();
    await sql
      .raw(
        `create table public.${table} (id serial primary key, org_id uuid not null, note text not null);
         create index on public.${table} (org_id);
         alter table public.${table} enable row level security;
         alter table public.${table} force row level security;
         create policy tenant on public.${table}
           using (org_id = (select app.current_org_id()))
           with check (org_id = (select app.current_org_id()));
         insert into public.${table} (org_id, note) values ('${orgA}', 'a1'), ('${orgA}', 'a2'), ('${orgB}', 'b1');`,
      )
      .execute(db.kysely);
  });

  afterAll(async () => {
    await sql.raw(`drop table if exists public.${table}`).execute(db.kysely);
    await db.close();
  });

  const notes = (orgId: string | null) =>
    withActor(db, { userId: userA, orgId }, async (trx) => {
      const { rows } = await sql<{ note: string }>`select note from ${sql.table(table)} order by note`.execute(trx);
      return rows.map((r) => r.note);
    });

  it("the app role is neither superuser nor exempt from row-level security", async () => {
    const { rows } = await sql<{ rolsuper: boolean; rolbypassrls: boolean }>`
      select rolsuper, rolbypassrls from pg_roles where rolname = 'murmur_app'`.execute(db.kysely);
    expect(rows).toEqual([{ rolsuper: false, rolbypassrls: false }]);
    const who = await withActor(
      db,
      { userId: userA, orgId: orgA },
      async (trx) => (await sql<{ u: string }>`select current_user as u`.execute(trx)).rows[0]?.u,
    );
    expect(who).toBe("murmur_app");
  });

  it("positive control: the owner connection sees every tenant's rows", async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db.kysely);
    expect(rows[0]?.n).toBe(3);
  });

  it("an actor sees only their organisation's rows", async () => {
    expect(await notes(orgA)).toEqual(["a1", "a2"]);
    expect(await notes(orgB)).toEqual(["b1"]);
  });

  it("no organisation means no rows", async () => {
    expect(await notes(null)).toEqual([]);
  });

  it("writing into another organisation is rejected", async () => {
    await expect(
      withActor(db, { userId: userA, orgId: orgA }, (trx) =>
        sql`insert into ${sql.table(table)} (org_id, note) values (${orgB}, 'smuggled')`.execute(trx),
      ),
    ).rejects.toThrow(/row-level security/);
    expect(await notes(orgB)).toEqual(["b1"]);
  });

  it("updates cannot reach another organisation's rows", async () => {
    const updated = await withActor(db, { userId: userA, orgId: orgA }, async (trx) => {
      const r = await sql`update ${sql.table(table)} set note = 'changed' where org_id = ${orgB}`.execute(trx);
      return Number(r.numAffectedRows ?? 0n);
    });
    expect(updated).toBe(0);
    expect(await notes(orgB)).toEqual(["b1"]);
  });

  it("the actor does not outlive the transaction", async () => {
    await notes(orgA);
    const { rows } = await sql<{ org: string | null; u: string; claims: string | null }>`
      select current_setting('murmur.org_id', true) as org, current_user as u,
             current_setting('request.jwt.claims', true) as claims`.execute(db.kysely);
    expect(rows[0]?.org ?? "").toBe("");
    expect(rows[0]?.claims ?? "").toBe("");
    expect(rows[0]?.u).not.toBe("murmur_app");
  });

  it("the actor's user id is readable by policies", async () => {
    const uid = await withActor(
      db,
      { userId: userA, orgId: orgA },
      async (trx) => (await sql<{ uid: string }>`select app.current_user_id() as uid`.execute(trx)).rows[0]?.uid,
    );
    expect(uid).toBe(userA);
  });
});
