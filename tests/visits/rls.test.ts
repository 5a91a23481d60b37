import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Actor, withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser, createOrg, createOrgWithEveryRole } from "#tests/setup/orgs.ts";

// 0007_patients_visits.sql under row-level security, as murmur_app through withActor (never a
// superuser): owners, clinicians and staff see their organisation's clinical rows only, admins
// none; rows cannot be written into another organisation, and no child row can point at another
// organisation's parent, even for a user who belongs to both.
describeEachDatabase("patients and visits under row-level security", (target) => {
  let db: Database;
  let a: { orgId: string; users: Record<OrgRole, string> };
  let b: { orgId: string; users: Record<OrgRole, string> };
  /** Owner of both A and B. */
  let both: string;
  const ids = { patientA: "", patientB: "", visitA: "", visitB: "" };

  beforeAll(async () => {
    db = await target.open();
    a = await createOrgWithEveryRole(db);
    b = await createOrgWithEveryRole(db);
    both = (await createAuthUser(db)).id;
    await sql`insert into public.org_members (org_id, user_id, role) values
      (${a.orgId}, ${both}, 'owner'), (${b.orgId}, ${both}, 'owner')`.execute(db.kysely);
    for (const [org, key] of [
      [a.orgId, "A"],
      [b.orgId, "B"],
    ] as const) {
      const { rows: p } = await sql<{ id: string }>`
        insert into public.patients (org_id, display_name) values (${org}, ${`Patient ${key}`}) returning id`.execute(db.kysely);
      const patientId = p[0]?.id ?? "";
      const { rows: v } = await sql<{ id: string }>`
        insert into public.visits (org_id, patient_id, language, consent_at) values (${org}, ${patientId}, 'en', now())
        returning id`.execute(db.kysely);
      const visitId = v[0]?.id ?? "";
      await sql`insert into public.visit_audio_chunks (org_id, visit_id, seq, sha256, bytes, storage_key)
        values (${org}, ${visitId}, 0, ${"a".repeat(64)}, 1, 'k')`.execute(db.kysely);
      await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text)
        values (${org}, ${visitId}, 1, 'import', 'import', 'en', 'text')`.execute(db.kysely);
      if (key === "A") Object.assign(ids, { patientA: patientId, visitA: visitId });
      else Object.assign(ids, { patientB: patientId, visitB: visitId });
    }
  });

  afterAll(async () => {
    await db.close();
  });

  const inA = (role: OrgRole): Actor => ({ userId: a.users[role], orgId: a.orgId });

  const visible = (actor: Actor) =>
    withActor(db, actor, async (trx) => ({
      patients: (await trx.selectFrom("patients").select("org_id").execute()).map((r) => r.org_id),
      visits: (await trx.selectFrom("visits").select("org_id").execute()).map((r) => r.org_id),
      chunks: (await trx.selectFrom("visit_audio_chunks").select("org_id").execute()).map((r) => r.org_id),
      transcriptions: (await trx.selectFrom("transcriptions").select("org_id").execute()).map((r) => r.org_id),
    }));

  it("owners, clinicians and staff see exactly their organisation's rows of every clinical table", async () => {
    for (const role of ["owner", "clinician", "staff"] as const) {
      expect(await visible(inA(role))).toEqual({
        patients: [a.orgId],
        visits: [a.orgId],
        chunks: [a.orgId],
        transcriptions: [a.orgId],
      });
    }
  });

  it("admins and anonymous callers see no clinical row at all (0 rows)", async () => {
    const none = { patients: [], visits: [], chunks: [], transcriptions: [] };
    expect(await visible(inA("admin"))).toEqual(none);
    expect(await visible({ userId: null, orgId: null })).toEqual(none);
  });

  it("asking for another organisation's rows by id returns 0 rows", async () => {
    const rows = await withActor(db, inA("owner"), async (trx) => [
      ...(await trx.selectFrom("patients").select("id").where("id", "=", ids.patientB).execute()),
      ...(await trx.selectFrom("visits").select("id").where("id", "=", ids.visitB).execute()),
      ...(await trx.selectFrom("visit_audio_chunks").select("seq").where("visit_id", "=", ids.visitB).execute()),
      ...(await trx.selectFrom("transcriptions").select("id").where("visit_id", "=", ids.visitB).execute()),
    ]);
    expect(rows).toEqual([]);
  });

  it("updates and deletes of another organisation's rows touch nothing", async () => {
    const touched = await withActor(db, inA("owner"), async (trx) => [
      (await trx.updateTable("patients").set({ notes: "x" }).where("id", "=", ids.patientB).executeTakeFirst()).numUpdatedRows,
      (await trx.deleteFrom("visits").where("id", "=", ids.visitB).executeTakeFirst()).numDeletedRows,
    ]);
    expect(touched).toEqual([0n, 0n]);
  });

  it("inserting rows into another organisation is rejected", async () => {
    await expect(
      withActor(db, inA("owner"), (trx) =>
        trx.insertInto("patients").values({ org_id: b.orgId, display_name: "Intruder" }).execute(),
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      withActor(db, inA("admin"), (trx) =>
        trx.insertInto("patients").values({ org_id: a.orgId, display_name: "By an admin" }).execute(),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it("a visit cannot reference another organisation's patient, even for an owner of both", async () => {
    await expect(
      withActor(db, { userId: both, orgId: a.orgId }, (trx) =>
        trx
          .insertInto("visits")
          .values({ org_id: a.orgId, patient_id: ids.patientB, language: "en", consent_at: new Date() })
          .execute(),
      ),
    ).rejects.toThrow(/foreign key/);
    await expect(
      withActor(db, { userId: both, orgId: a.orgId }, (trx) =>
        trx.updateTable("visits").set({ patient_id: ids.patientB }).where("id", "=", ids.visitA).execute(),
      ),
    ).rejects.toThrow(/foreign key/);
  });

  it("chunks and transcripts cannot reference another organisation's visit, even for an owner of both", async () => {
    await expect(
      withActor(db, { userId: both, orgId: a.orgId }, (trx) =>
        trx
          .insertInto("visit_audio_chunks")
          .values({ org_id: a.orgId, visit_id: ids.visitB, seq: 1, sha256: "b".repeat(64), bytes: 1, storage_key: "k" })
          .execute(),
      ),
    ).rejects.toThrow(/foreign key/);
    await expect(
      withActor(db, { userId: both, orgId: a.orgId }, (trx) =>
        trx
          .insertInto("transcriptions")
          .values({
            org_id: a.orgId,
            visit_id: ids.visitB,
            version: 9,
            source: "import",
            engine: "import",
            language: "en",
            text: "x",
            segments: "[]",
            created_by: both,
          })
          .execute(),
      ),
    ).rejects.toThrow(/foreign key/);
  });

  it("a patient of one's own organisation can be edited (0013: the guard no longer reads visit-only fields)", async () => {
    const updated = await withActor(db, inA("clinician"), async (trx) =>
      trx.updateTable("patients").set({ notes: "allergic to penicillin" }).where("id", "=", ids.patientA).executeTakeFirst(),
    );
    expect(updated.numUpdatedRows).toBe(1n);
  });

  it("a row never moves to another organisation, and a visit's consent record never changes", async () => {
    await expect(
      withActor(db, { userId: both, orgId: a.orgId }, (trx) =>
        trx
          .updateTable("patients")
          .set({ org_id: b.orgId } as never)
          .where("id", "=", ids.patientA)
          .execute(),
      ),
    ).rejects.toThrow(/cannot change/);
    await expect(
      withActor(db, inA("owner"), (trx) =>
        trx
          .updateTable("visits")
          .set({ consent_at: new Date(0) } as never)
          .where("id", "=", ids.visitA)
          .execute(),
      ),
    ).rejects.toThrow(/cannot change/);
  });

  it("transcript versions and acknowledged chunks are immutable for the app role", async () => {
    await expect(
      withActor(db, inA("owner"), (trx) =>
        trx
          .updateTable("transcriptions")
          .set({ text: "rewritten" } as never)
          .where("visit_id", "=", ids.visitA)
          .execute(),
      ),
    ).rejects.toThrow(/permission denied/);
    await expect(
      withActor(db, inA("owner"), (trx) => trx.deleteFrom("transcriptions").where("visit_id", "=", ids.visitA).execute()),
    ).rejects.toThrow(/permission denied/);
    await expect(
      withActor(db, inA("owner"), (trx) =>
        trx
          .updateTable("visit_audio_chunks")
          .set({ sha256: "c".repeat(64) } as never)
          .where("visit_id", "=", ids.visitA)
          .execute(),
      ),
    ).rejects.toThrow(/permission denied/);
  });

  it("an imported transcript must name the acting user as its author", async () => {
    await expect(
      withActor(db, inA("clinician"), (trx) =>
        trx
          .insertInto("transcriptions")
          .values({
            org_id: a.orgId,
            visit_id: ids.visitA,
            version: 50,
            source: "import",
            engine: "import",
            language: "en",
            text: "x",
            segments: "[]",
            created_by: a.users.owner,
          })
          .execute(),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it("deleting a visit as its organisation's staff removes its chunks and transcripts (cascade)", async () => {
    const { rows } = await sql<{ id: string }>`
      insert into public.visits (org_id, patient_id, language, consent_at) values (${a.orgId}, ${ids.patientA}, 'fr', now())
      returning id`.execute(db.kysely);
    const visitId = rows[0]?.id ?? "";
    await sql`insert into public.visit_audio_chunks (org_id, visit_id, seq, sha256, bytes, storage_key)
      values (${a.orgId}, ${visitId}, 0, ${"d".repeat(64)}, 1, 'k')`.execute(db.kysely);
    await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text)
      values (${a.orgId}, ${visitId}, 1, 'engine', 'fake', 'fr', 'bonjour')`.execute(db.kysely);
    await withActor(db, inA("staff"), (trx) => trx.deleteFrom("visits").where("id", "=", visitId).execute());
    const left = await sql<{ n: number }>`
      select (select count(*) from public.visit_audio_chunks where visit_id = ${visitId})::int
           + (select count(*) from public.transcriptions where visit_id = ${visitId})::int as n`.execute(db.kysely);
    expect(left.rows[0]?.n).toBe(0);
  });

  it("deleting an organisation removes its patients and visits", async () => {
    const owner = (await createAuthUser(db)).id;
    const orgId = await createOrg(db, [{ userId: owner, role: "owner" }]);
    const { rows } = await sql<{ id: string }>`
      insert into public.patients (org_id, display_name) values (${orgId}, 'P') returning id`.execute(db.kysely);
    await sql`insert into public.visits (org_id, patient_id, language, consent_at) values (${orgId}, ${rows[0]?.id}, 'es', now())`.execute(
      db.kysely,
    );
    await sql`delete from public.organizations where id = ${orgId}`.execute(db.kysely);
    const left = await sql<{ n: number }>`select count(*)::int as n from public.visits where org_id = ${orgId}`.execute(
      db.kysely,
    );
    expect(left.rows[0]?.n).toBe(0);
  });
});
