import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import * as noteRoute from "#app/routes/resources/api-note.ts";
import * as checkRoute from "#app/routes/resources/api-note-check.ts";
import * as signRoute from "#app/routes/resources/api-note-sign.ts";
import * as settingsRoute from "#app/routes/resources/api-org-note-checks.ts";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, seedVisit, type VisitHarness, type Who } from "#tests/visits/harness.ts";
import { generatedNote } from "./notes-harness.ts";

// Issue 27 "Safe to sign": checks on every draft, GET /api/notes/:id → checks, editing resolves,
// acknowledging is audited, the sign gate's 409 unresolved_checks, the signed record keeps what
// was acknowledged and by whom, a poor transcript makes the whole note a check.
describeEachDatabase("note checks and the sign gate", (target) => {
  let h: VisitHarness;
  const engine = createExtractiveEngine();

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });
  afterAll(async () => {
    await h.close();
  });

  const get = (noteId: string, as: Who = "clinician") =>
    call(h, noteRoute, { method: "GET", path: `/api/notes/${noteId}`, params: { id: noteId }, as });
  // A save names the version it edited (issue 25).
  const put = async (noteId: string, sections: unknown) =>
    call(h, noteRoute, {
      method: "PUT",
      path: `/api/notes/${noteId}`,
      params: { id: noteId },
      json: { sections, version: (await get(noteId)).body.version },
      as: "clinician",
    });
  const sign = (noteId: string, as: Who = "clinician") =>
    call(h, signRoute, { method: "POST", path: `/api/notes/${noteId}/sign`, params: { id: noteId }, as });
  const act = (noteId: string, checkId: string, body: unknown, as: Who = "clinician") =>
    call(h, checkRoute, {
      method: "POST",
      path: `/api/notes/${noteId}/checks/${checkId}`,
      params: { id: noteId, checkId },
      json: body,
      as,
    });
  type Check = { id: string; kind: string; code: string; status: string; sentence: string | null; gating: boolean };
  const openChecks = async (noteId: string): Promise<Check[]> =>
    ((await get(noteId)).body.checks as Check[]).filter((c) => c.status === "open");
  const clear = async (noteId: string) => {
    for (const c of await openChecks(noteId)) expect((await act(noteId, c.id, { action: "acknowledge" })).status).toBe(200);
  };

  /** A subjective section saying both things of the demo note. */
  const contradicting = async () => {
    const { noteId } = await generatedNote(h, engine);
    const note = (await get(noteId)).body;
    const key = note.sections[0].key as string;
    const res = await put(noteId, [{ key, text: "Denies fever or shortness of breath. A little short of breath." }]);
    expect(res.status).toBe(200);
    return { noteId, key };
  };

  it("every draft has checks in the documented shape", async () => {
    const { noteId } = await generatedNote(h, engine);
    const { checks } = (await get(noteId)).body;
    expect(Array.isArray(checks)).toBe(true);
    for (const c of checks) {
      expect(["low_confidence", "contradiction", "unsupported", "omission"]).toContain(c.kind);
      expect(c).toMatchObject({ status: "open", resolved_by: null, resolved_at: null, gating: true });
      expect(typeof c.id).toBe("string");
      expect(typeof c.text).toBe("string");
    }
  });

  it("a contradiction blocks the signature with 409 unresolved_checks and its checks; nothing is signed", async () => {
    const { noteId } = await contradicting();
    const open = await openChecks(noteId);
    const contradiction = open.find((c) => c.kind === "contradiction");
    expect(contradiction).toMatchObject({ code: "denies_reports", sentence: "A little short of breath." });
    const refused = await sign(noteId);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("unresolved_checks");
    expect(refused.body.checks.map((c: Check) => c.id)).toContain(contradiction?.id);
    expect((await get(noteId)).body).toMatchObject({ status: "draft", signed_at: null });
  });

  it("editing the sentence resolves its check, by the editor", async () => {
    const { noteId, key } = await contradicting();
    const before = (await openChecks(noteId)).find((c) => c.kind === "contradiction") as Check;
    await put(noteId, [{ key, text: "Denies fever. A little short of breath." }]);
    const after = ((await get(noteId)).body.checks as (Check & { resolved_by: string })[]).find((c) => c.id === before.id);
    expect(after).toMatchObject({ status: "resolved", resolved_by: h.a.users.clinician.id });
    expect((await openChecks(noteId)).some((c) => c.kind === "contradiction")).toBe(false);
  });

  it("acknowledging is audited, lets the note be signed, and the signed version keeps who acknowledged", async () => {
    const { noteId } = await contradicting();
    const contradiction = (await openChecks(noteId)).find((c) => c.kind === "contradiction") as Check;
    expect((await act(noteId, contradiction.id, { action: "acknowledge" }, "staff")).status).toBe(403);
    expect((await act(noteId, contradiction.id, { action: "acknowledge" }, "outsider")).status).toBe(404);
    expect((await act(noteId, contradiction.id, { action: "dismiss" })).status).toBe(400);
    expect((await act(noteId, "not-a-uuid", { action: "acknowledge" })).body.code).toBe("check_not_found");
    const done = await act(noteId, contradiction.id, { action: "acknowledge", reason: "Breathless on exertion only" });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      status: "acknowledged",
      resolved_by: h.a.users.clinician.id,
      reason: "Breathless on exertion only",
    });
    const audit = await sql<{ action: string; details: { check_id: string; kind: string } }>`
      select action, details from public.audit_log where entity_id = ${noteId} and action = 'note.check_acknowledged'`.execute(
      h.db.kysely,
    );
    expect(audit.rows).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ check_id: contradiction.id, kind: "contradiction" }) }),
    ]);
    await clear(noteId);
    const signed = await sign(noteId);
    expect(signed.status).toBe(200);
    const version = signed.body.versions.at(-1);
    expect(version.kind).toBe("signed");
    expect(version.checks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: contradiction.id, status: "acknowledged", resolved_by: h.a.users.clinician.id }),
      ]),
    );
    expect(version.checks.find((c: { id: string }) => c.id === contradiction.id).resolved_by_name).toBeTruthy();
  });

  it("an amendment recomputes checks on the amended text", async () => {
    const { noteId, key } = await contradicting();
    await clear(noteId);
    expect((await sign(noteId)).status).toBe(200);
    const { amendNote } = await import("#app/services/notes/sign.server.ts");
    await amendNote({
      db: h.db,
      actor: { userId: h.a.users.clinician.id },
      orgId: h.a.orgId,
      noteId,
      reason: "Allergy added",
      sections: [{ key, text: "No known allergies. Allergic to penicillin." }],
    });
    expect((await openChecks(noteId)).map((c) => c.code)).toContain("allergy");
  });

  it("an owner may make low-confidence words and omissions advisory; contradictions still gate", async () => {
    const { noteId } = await contradicting();
    const settings = (json: unknown, as: Who) =>
      call(h, settingsRoute, {
        method: json === undefined ? "GET" : "PUT",
        path: `/api/orgs/${h.a.orgId}/note-checks`,
        params: { id: h.a.orgId },
        ...(json === undefined ? {} : { json }),
        as,
      });
    expect((await settings({ advisory: ["low_confidence"] }, "clinician")).status).toBe(403);
    expect((await settings({ advisory: ["contradiction"] }, "owner")).status).toBe(400);
    const set = await settings({ advisory: ["low_confidence", "omission"] }, "owner");
    expect(set).toMatchObject({ status: 200, body: { advisory: ["low_confidence", "omission"] } });
    expect((await settings(undefined, "clinician")).body).toEqual({ advisory: ["low_confidence", "omission"] });
    try {
      const checks = (await get(noteId)).body.checks as Check[];
      for (const c of checks) expect(c.gating).toBe(!["low_confidence", "omission"].includes(c.kind));
      expect((await sign(noteId)).body.code).toBe("unresolved_checks");
    } finally {
      expect((await settings({ advisory: [] }, "owner")).status).toBe(200);
    }
  });

  it("a poor transcript: quality on GET /api/visits/:id and an unsupported check on the whole note", async () => {
    const visitId = await seedVisit(h, { language: "en", status: "transcribed" });
    const segments = [
      { start: 0, end: 6, text: "the cough to weeks and chest", confidence: [0.3, 0.4, 0.2, 0.3, 0.6, 0.2] },
      { start: 6, end: 12, text: "no fever lisinopril ten daily", confidence: [0.4, 0.3, 0.2, 0.45, 0.3] },
    ];
    await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text, segments)
      values (${h.a.orgId}, ${visitId}, 1, 'engine', 'pocketsphinx', 'en', ${segments.map((s) => s.text).join(" ")},
              ${JSON.stringify(segments)}::jsonb)`.execute(h.db.kysely);
    const visit = await call(h, visitRoute, {
      method: "GET",
      path: `/api/visits/${visitId}`,
      params: { id: visitId },
      as: "clinician",
    });
    expect(visit.body.transcription.quality).toMatchObject({
      tier: "poor",
      reasons: expect.arrayContaining(["many_unsure_words"]),
    });
    const { noteId } = await generatedNote(h, engine, { visitId });
    const whole = (await openChecks(noteId)).find((c) => c.code === "poor_transcript");
    expect(whole).toMatchObject({ kind: "unsupported", sentence: null, gating: true });
  });

  it("row-level security: owners and clinicians only, no deletes, nobody acknowledges in another's name", async () => {
    const { noteId } = await contradicting();
    const count = (userId: string, orgId: string) =>
      withActor(
        h.db,
        { userId, orgId },
        async (trx) => (await trx.selectFrom("note_checks").select("id").where("note_id", "=", noteId).execute()).length,
      );
    expect(await count(h.a.users.clinician.id, h.a.orgId)).toBeGreaterThan(0);
    expect(await count(h.a.users.owner.id, h.a.orgId)).toBeGreaterThan(0);
    expect(await count(h.a.users.staff.id, h.a.orgId)).toBe(0);
    expect(await count(h.a.users.admin.id, h.a.orgId)).toBe(0);
    expect(await count(h.b.owner.id, h.b.orgId)).toBe(0);
    await expect(
      withActor(h.db, { userId: h.a.users.owner.id, orgId: h.a.orgId }, (trx) =>
        trx.deleteFrom("note_checks").where("note_id", "=", noteId).execute(),
      ),
    ).rejects.toThrow(/permission denied/);
    await expect(
      withActor(h.db, { userId: h.a.users.clinician.id, orgId: h.a.orgId }, (trx) =>
        trx
          .updateTable("note_checks")
          .set({ status: "acknowledged", resolved_by: h.a.users.owner.id, resolved_at: new Date() })
          .where("note_id", "=", noteId)
          .execute(),
      ),
    ).rejects.toThrow(/row-level security|violates/);
    const outsider = await withActor(h.db, { userId: h.b.owner.id, orgId: h.b.orgId }, (trx) =>
      trx.updateTable("note_checks").set({ status: "acknowledged" }).where("note_id", "=", noteId).executeTakeFirst(),
    );
    expect(Number(outsider.numUpdatedRows)).toBe(0);
  });
});
