import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Actor, withActor } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { signNote } from "#app/services/notes/sign.server.ts";
import { acknowledgeAllChecks } from "#tests/notes/checks-harness.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, type VisitHarness } from "#tests/visits/harness.ts";
import { generatedNote } from "./notes-harness.ts";

// 0012_notes.sql as murmur_app through withActor (never a superuser): owners and clinicians of the
// organisation read and write its notes, staff and admins none; versions are insert-only; a
// signed note and its signed versions cannot be changed or deleted by any role, the owner
// connection included.
describeEachDatabase("notes under row-level security", (target) => {
  let h: VisitHarness;
  let signedId: string;
  let draftId: string;
  let signedVisit: string;

  beforeAll(async () => {
    h = await openVisitHarness(target);
    const engine = createExtractiveEngine();
    const signed = await generatedNote(h, engine);
    signedId = signed.noteId;
    signedVisit = signed.visitId;
    await acknowledgeAllChecks(h, signedId);
    await signNote({ db: h.db, actor: { userId: h.a.users.clinician.id }, orgId: h.a.orgId, noteId: signedId });
    draftId = (await generatedNote(h, engine)).noteId;
  });

  afterAll(async () => {
    await h.close();
  });

  const inA = (role: OrgRole): Actor => ({ userId: h.a.users[role].id, orgId: h.a.orgId });
  const visibleNotes = (actor: Actor) =>
    withActor(h.db, actor, async (trx) => ({
      notes: (await trx.selectFrom("notes").select("id").execute()).length,
      versions: (await trx.selectFrom("note_versions").select("id").execute()).length,
    }));

  it("owners and clinicians read the organisation's notes; staff, admins and other organisations none", async () => {
    expect((await visibleNotes(inA("clinician"))).notes).toBeGreaterThanOrEqual(2);
    expect((await visibleNotes(inA("owner"))).versions).toBeGreaterThanOrEqual(1);
    expect(await visibleNotes(inA("staff"))).toEqual({ notes: 0, versions: 0 });
    expect(await visibleNotes(inA("admin"))).toEqual({ notes: 0, versions: 0 });
    expect(await visibleNotes({ userId: h.b.owner.id, orgId: h.b.orgId })).toEqual({ notes: 0, versions: 0 });
  });

  it("versions are insert-only for murmur_app: no update, no delete, not even of a draft edit", async () => {
    await expect(
      withActor(h.db, inA("clinician"), (trx) =>
        trx
          .updateTable("note_versions")
          .set({ amendment_reason: "x" } as never)
          .where("note_id", "=", signedId)
          .execute(),
      ),
    ).rejects.toThrow(/permission denied/);
    await expect(
      withActor(h.db, inA("owner"), (trx) => trx.deleteFrom("note_versions").where("note_id", "=", signedId).execute()),
    ).rejects.toThrow(/permission denied/);
    await expect(
      withActor(h.db, inA("owner"), (trx) => trx.deleteFrom("notes").where("id", "=", draftId).execute()),
    ).rejects.toThrow(/permission denied/);
  });

  it("a version's author is the actor, in the actor's organisation", async () => {
    const forge = (actor: Actor, author: string, orgId: string) =>
      withActor(h.db, actor, (trx) =>
        trx
          .insertInto("note_versions")
          .values({
            org_id: orgId,
            note_id: draftId,
            version: 99,
            kind: "draft_edit",
            sections: "[]",
            content_sha256: "0".repeat(64),
            author_id: author,
            amendment_reason: null,
          })
          .execute(),
      );
    await expect(forge(inA("clinician"), h.a.users.owner.id, h.a.orgId)).rejects.toThrow(/row-level security/);
    await expect(forge(inA("staff"), h.a.users.staff.id, h.a.orgId)).rejects.toThrow(/row-level security/);
    await expect(forge({ userId: h.b.owner.id, orgId: h.b.orgId }, h.b.owner.id, h.a.orgId)).rejects.toThrow(
      /row-level security/,
    );
  });

  it("a signed note changes only by amendment, for murmur_app and the owner connection alike", async () => {
    await expect(
      withActor(h.db, inA("clinician"), (trx) =>
        trx.updateTable("notes").set({ status: "draft" }).where("id", "=", signedId).execute(),
      ),
    ).rejects.toThrow(/changes only by amendment/);
    await expect(
      withActor(h.db, inA("owner"), (trx) =>
        trx.updateTable("notes").set({ sections: "[]" }).where("id", "=", signedId).execute(),
      ),
    ).rejects.toThrow(/changes only by amendment/);
    await expect(
      sql`update public.note_versions set sections = '[]'::jsonb where note_id = ${signedId}`.execute(h.db.kysely),
    ).rejects.toThrow(/cannot change/);
    await expect(
      sql`delete from public.note_versions where note_id = ${signedId} and kind = 'signed'`.execute(h.db.kysely),
    ).rejects.toThrow(/cannot be deleted/);
    await expect(sql`delete from public.notes where id = ${signedId}`.execute(h.db.kysely)).rejects.toThrow(/cannot be deleted/);
    // Deleting the visit would cascade to its signed note: refused, the record stays.
    await expect(sql`delete from public.visits where id = ${signedVisit}`.execute(h.db.kysely)).rejects.toThrow(
      /cannot be deleted/,
    );
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from public.note_versions where note_id = ${signedId} and kind = 'signed'`.execute(h.db.kysely);
    expect(rows[0]?.n).toBe(1);
    // Rating stays open after signing (quality data, not note content).
    await withActor(h.db, inA("clinician"), (trx) =>
      trx.updateTable("notes").set({ rating: 5 }).where("id", "=", signedId).execute(),
    );
  });

  it("a draft note goes with its visit", async () => {
    const { rows } = await sql<{ visit_id: string }>`select visit_id from public.notes where id = ${draftId}`.execute(
      h.db.kysely,
    );
    await sql`delete from public.visits where id = ${rows[0]?.visit_id ?? ""}`.execute(h.db.kysely);
    const left = await sql`select 1 from public.notes where id = ${draftId}`.execute(h.db.kysely);
    expect(left.rows).toHaveLength(0);
  });
});
