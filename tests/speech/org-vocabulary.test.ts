import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { signNote } from "#app/services/notes/sign.server.ts";
import { getVocabulary, setCustomTerms } from "#app/services/orgs/vocabulary.server.ts";
import { loadOrgVocabulary, refreshOrgVocabulary } from "#app/services/speech/org-vocab/refresh.server.ts";
import { acknowledgeAllChecks } from "#tests/notes/checks-harness.ts";
import { generatedNote } from "#tests/notes/notes-harness.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, type VisitHarness } from "#tests/visits/harness.ts";

// Issue 15 "Per-organisation vocabulary" (ADR 0032, migration 0035), on the real database: the
// owner's list, the refresh job's collection from names, templates and signed notes, and the
// isolation between organisations (row-level security and the job's own filtering).
describeEachDatabase("per-organisation speech vocabulary", (target) => {
  let h: VisitHarness;

  beforeAll(async () => {
    h = await openVisitHarness(target);
    const name = (id: string, full: string) =>
      sql`update auth.users set raw_user_meta_data = jsonb_build_object('full_name', ${full}::text) where id = ${id}`.execute(
        h.db.kysely,
      );
    await name(h.a.users.clinician.id, "Dr Amara Okafor");
    await name(h.b.owner.id, "Dr Lena Quistgaard");
    // A signed note in A: the extractive engine copies the transcript's drugs (benzonatate, lisinopril).
    const { noteId } = await generatedNote(h, createExtractiveEngine());
    await acknowledgeAllChecks(h, noteId);
    await signNote({ db: h.db, actor: { userId: h.a.users.clinician.id }, orgId: h.a.orgId, noteId });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  const owner = () => ({ db: h.db, actor: { userId: h.a.users.owner.id }, orgId: h.a.orgId });

  it("the owner saves a word list; other roles are refused with forbidden_role", async () => {
    await setCustomTerms({ ...owner(), terms: ["Zenvaxor", "Brightwell"] });
    expect((await getVocabulary(owner())).customTerms).toEqual(["Zenvaxor", "Brightwell"]);
    for (const role of ["clinician", "admin", "staff"] as const) {
      await expect(getVocabulary({ ...owner(), actor: { userId: h.a.users[role].id } })).rejects.toMatchObject({
        code: "forbidden_role",
        status: 403,
      });
      await expect(setCustomTerms({ ...owner(), actor: { userId: h.a.users[role].id }, terms: ["x"] })).rejects.toMatchObject({
        code: "forbidden_role",
      });
    }
  });

  it("the refresh collects the organisation's custom words, clinicians' names and rare words of its signed notes", async () => {
    const result = await refreshOrgVocabulary(h.db, h.a.orgId);
    expect(result?.terms).toBeGreaterThan(0);
    const vocabulary = await loadOrgVocabulary(h.db, h.a.orgId);
    const byWord = new Map(vocabulary?.terms.map((t) => [t.word, t]));
    expect(byWord.get("zenvaxor")).toMatchObject({ source: "custom" });
    // Not in the dictionary: espeak-ng's pronunciation, mapped to the acoustic model's phones.
    expect(byWord.get("zenvaxor")?.phones).toEqual(["Z", "EH", "N", "V", "AE", "K", "S", "ER"]);
    expect(byWord.get("okafor")).toMatchObject({ source: "clinician", before: ["doctor"] });
    expect(byWord.has("amara")).toBe(true);
    expect(byWord.get("benzonatate")?.source).toBe("note");
    // Everyday words of the note are not terms.
    expect(byWord.has("cough")).toBe(false);
    // The same texts give the same version (the on-disk model is reused), and refreshedAt is set.
    const again = await refreshOrgVocabulary(h.db, h.a.orgId);
    expect(again).toMatchObject({ version: result?.version, changed: false });
    expect((await getVocabulary(owner())).refreshedAt).toBeInstanceOf(Date);
    expect((await getVocabulary(owner())).learned.clinician.words).toContain("okafor");
  });

  it("one organisation's words never reach another's vocabulary", async () => {
    await refreshOrgVocabulary(h.db, h.b.orgId);
    const a = await loadOrgVocabulary(h.db, h.a.orgId);
    const b = await loadOrgVocabulary(h.db, h.b.orgId);
    const wordsB = new Set(b?.terms.map((t) => t.word));
    expect(wordsB.has("quistgaard")).toBe(true);
    for (const word of ["zenvaxor", "brightwell", "okafor", "benzonatate"]) expect(wordsB.has(word)).toBe(false);
    expect(a?.terms.some((t) => t.word === "quistgaard")).toBe(false);
    expect(a?.version).not.toBe(b?.version);
  });

  it("row-level security: only the organisation's owner reads or writes its row, never the job's columns", async () => {
    const rows = (userId: string, orgId: string) =>
      withActor(h.db, { userId, orgId }, (trx) => trx.selectFrom("org_vocabulary").select("org_id").execute());
    expect(await rows(h.a.users.owner.id, h.a.orgId)).toEqual([{ org_id: h.a.orgId }]);
    expect(await rows(h.a.users.clinician.id, h.a.orgId)).toEqual([]);
    expect(await rows(h.b.owner.id, h.b.orgId)).toEqual([{ org_id: h.b.orgId }]);
    // B's owner cannot write A's list, nor A's owner the collected terms.
    const updated = await withActor(h.db, { userId: h.b.owner.id, orgId: h.b.orgId }, (trx) =>
      trx
        .updateTable("org_vocabulary")
        .set({ custom_terms: ["intruder"], updated_by: h.b.owner.id })
        .where("org_id", "=", h.a.orgId)
        .execute(),
    );
    expect(Number(updated[0]?.numUpdatedRows ?? 0)).toBe(0);
    await expect(
      withActor(h.db, { userId: h.a.users.owner.id, orgId: h.a.orgId }, (trx) =>
        trx.updateTable("org_vocabulary").set({ terms: "[]" }).where("org_id", "=", h.a.orgId).execute(),
      ),
    ).rejects.toThrow(/permission denied/);
  });
});
