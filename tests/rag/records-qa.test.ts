import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import * as recordsQaPage from "#app/routes/app/records-qa.tsx";
import * as askRoute from "#app/routes/resources/api-rag-ask.ts";
import * as searchRoute from "#app/routes/resources/api-rag-search.ts";
import * as sourceRoute from "#app/routes/resources/api-rag-source.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { saveDraft } from "#app/services/notes/notes.server.ts";
import { amendNote, signNote } from "#app/services/notes/sign.server.ts";
import { editTranscript } from "#app/services/visits/transcript-versions.server.ts";
import { createVisit, deleteVisit, getVisit } from "#app/services/visits/visits.server.ts";
import { acknowledgeAllChecks } from "#tests/notes/checks-harness.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, pageContextIn, seedPatient, type VisitHarness, type Who } from "#tests/visits/harness.ts";
import { generatedNote, patientOf, SEGMENTS_EN, transcribedVisit } from "../notes/notes-harness.ts";

// Ask Murmur over a real database, one harness for the file (PGlite, and PostgreSQL when
// DATABASE_URL is set).
// - 0017_records_index.sql: the index follows every write path in the writer's own transaction
//   (triggers), and row-level security hides note rows from staff and admins and every row from
//   other organisations before any query can rank them.
// - /api/rag/ask, /search and /source (docs/api.md "Ask Murmur"): answers cite what the caller's
//   role may read in the current organisation only, with stable 4xx codes; /records-qa deep links.

describeEachDatabase("Ask Murmur", (target) => {
  let h: VisitHarness;
  let visitId: string;
  let patientId: string;
  let noteId: string;
  let frPatient: string;
  const rows = async (where: { visitId?: string; noteId?: string }) => {
    const { rows } = await sql<{ text: string; field: string; note_status: string | null; start_s: number | null }>`
      select text, field, note_status, start_s from public.record_chunks
      where ${where.noteId ? sql`note_id = ${where.noteId}` : sql`visit_id = ${where.visitId ?? null} and source_table = 'transcriptions'`}
      order by position`.execute(h.db.kysely);
    return rows;
  };
  const as = (role: OrgRole) => ({ db: h.db, actor: { userId: h.a.users[role].id }, orgId: h.a.orgId });

  const ask = (body: unknown, as: Who = "clinician", headers?: Record<string, string>) =>
    call(h, askRoute, { method: "POST", path: "/api/rag/ask", json: body, as, headers });
  const search = (body: unknown, as: Who = "clinician") =>
    call(h, searchRoute, { method: "POST", path: "/api/rag/search", json: body, as });
  const source = (id: string, as: Who = "clinician") =>
    call(h, sourceRoute, { method: "GET", path: `/api/rag/source?id=${encodeURIComponent(id)}`, as });

  beforeAll(async () => {
    h = await openVisitHarness(target);
    const generated = await generatedNote(h, createExtractiveEngine());
    ({ noteId, visitId } = generated);
    patientId = await patientOf(h, visitId);
    const view = await saveDraft({
      db: h.db,
      actor: { userId: h.a.users.clinician.id },
      orgId: h.a.orgId,
      noteId,
      sections: [{ key: "plan", text: "Started furosemide 20 mg daily for ankle swelling." }],
    });
    expect(view.id).toBe(noteId);
    await sql`update public.visits set visit_date = '2026-03-10', title = 'Cough follow-up' where id = ${visitId}`.execute(
      h.db.kysely,
    );
    frPatient = await seedPatient(h);
    await transcribedVisit(h, {
      patientId: frPatient,
      language: "fr",
      text: "[patient] Je prends du paracétamol 500 mg deux fois par jour. [doctor] La radio du genou est normale.",
    });
    // The other organisation holds the same words: they must never come back to A.
    await transcribedVisit(h, { orgId: h.b.orgId });
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers from the patient's records with a citation to the visit and the second", async () => {
    const res = await ask({ query: "What dose of lisinopril does she take?", patientId });
    expect(res.status).toBe(200);
    expect(res.body.usedFallback).toBe(false);
    // Issue 28: one composed answer, in the third person, each [n] a chip.
    expect(res.body.answer).toContain("lisinopril 10 mg");
    expect(res.body.answer).not.toMatch(/\bI take\b/);
    const markers = new Set([...res.body.answer.matchAll(/\[(\d+)\]/g)].map((m: RegExpMatchArray) => Number(m[1])));
    expect(markers.size).toBe(res.body.citations.length);
    // The transcript's sentence is cited by its visit and second.
    const spoken = await search({
      query: "What dose of lisinopril does she take?",
      patientId,
      filters: { record_types: ["transcription"] },
    });
    expect(spoken.body.citations[0]).toMatchObject({
      title: "Cough follow-up",
      created_at: "2026-03-10",
      source: { table: "transcriptions", id: visitId, field: "segment", visit_id: visitId, patient_id: patientId, start: 16.4 },
    });
  });

  it("expands lay words: 'water pill' finds the furosemide note sentence for a clinician, not for staff", async () => {
    const clinician = await ask({ query: "Is she on a water pill?", patientId });
    expect(clinician.body.answer).toContain("furosemide 20 mg");
    const cited = clinician.body.citations[0];
    expect(cited.source).toMatchObject({ table: "doctor_notes", id: noteId, field: "plan" });
    const staff = await ask({ query: "Is she on a water pill?", patientId }, "staff");
    expect(staff.status).toBe(200);
    expect(staff.body.citations.every((c: { source: { table: string } }) => c.source.table === "transcriptions")).toBe(true);
    expect(staff.body.answer).not.toContain("furosemide");
    expect((await source(cited.id, "staff")).status).toBe(404);
    const opened = await source(cited.id);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      id: cited.id,
      created_at: "2026-03-10",
      metadata: { table: "doctor_notes", id: noteId, field: "plan" },
    });
    expect(opened.body.content).toContain("furosemide 20 mg");
  });

  it("searches French records without accents and filters by date and record type", async () => {
    const fr = await ask({ query: "Quelle dose de paracetamol ?", patientId: frPatient }, "owner", { "accept-language": "fr" });
    expect(fr.body.answer).toContain("paracétamol 500 mg");
    const none = await ask({ query: "lisinopril", patientId, filters: { date_to: "2026-03-09" } }, "owner", {
      "accept-language": "fr",
    });
    expect(none.body).toMatchObject({ answer: "Le dossier ne le dit pas.", citations: [] });
    const notesOnly = await search({ query: "lisinopril furosemide", patientId, filters: { record_types: ["doctor_note"] } });
    expect(notesOnly.body.citations.length).toBeGreaterThan(0);
    expect(new Set(notesOnly.body.citations.map((c: { source: { table: string } }) => c.source.table))).toEqual(
      new Set(["doctor_notes"]),
    );
  });

  it("keeps other organisations and roles out: admin 403, outsider 404, B's words never in A's answers", async () => {
    const orgWide = await search({ query: "lisinopril" }, "owner");
    expect(orgWide.body.citations.length).toBeGreaterThan(0);
    expect(orgWide.body.citations.every((c: { source: { visit_id: string } }) => c.source.visit_id !== null)).toBe(true);
    const { rows } = await sql<{ id: string }>`select id from public.visits where org_id = ${h.b.orgId}`.execute(h.db.kysely);
    const bVisits = new Set(rows.map((r) => r.id));
    expect(orgWide.body.citations.some((c: { source: { visit_id: string } }) => bVisits.has(c.source.visit_id))).toBe(false);
    expect((await ask({ query: "lisinopril", patientId }, "admin")).body.code).toBe("forbidden_role");
    const outsider = await call(h, askRoute, {
      method: "POST",
      path: "/api/rag/ask",
      json: { query: "lisinopril" },
      as: "outsider",
      orgId: h.a.orgId,
    });
    expect(outsider.status).toBe(404);
    expect((await source(orgWide.body.citations[0].id, "outsider")).body.code).toBe("source_not_found");
  });

  it("refuses bad input with stable codes", async () => {
    expect((await ask({ query: "   " })).body.code).toBe("query_empty");
    expect((await ask({ query: "x".repeat(2001) })).body.code).toBe("query_too_long");
    expect((await ask({ query: "x", filters: { record_types: ["emails"] } })).body.code).toBe("invalid_filters");
    expect((await ask({ query: "x", filters: { date_from: "2026-04-01", date_to: "2026-03-01" } })).body.code).toBe(
      "invalid_filters",
    );
    const unknown = await ask({ query: "x", patientId: crypto.randomUUID() });
    expect([unknown.status, unknown.body.code]).toEqual([404, "patient_not_found"]);
    expect((await ask({ query: "x", patientId: "nope" })).status).toBe(404);
    expect((await source("not a uuid!")).status).toBe(404);
    expect((await search({ query: "lisinopril", debug: true }, "clinician")).status).toBe(403);
    const debug = await search({ query: "lisinopril", debug: true }, "owner");
    expect(Object.keys(debug.body.citations[0].features).sort()).toEqual([
      "all",
      "amount",
      "authority",
      "own",
      "phrase",
      "score",
    ]);
  });

  it("routes product questions to help in the reader's language, and says when help has no answer", async () => {
    const help = await ask({ query: "Comment inviter un collègue ?" }, "admin", { "accept-language": "fr" });
    expect(help.status).toBe(200);
    expect(help.body.scope).toBe("help");
    expect(help.body.citations[0]).toMatchObject({ id: "invitations-fr", source: { table: "help" } });
    expect(help.body.answer).toMatch(/\[1\]/);
    const unknown = await ask({ query: "xylophone quantique", scope: "help" });
    expect(unknown.body.answer.split("\n")[0]).toBe("I do not have enough information in help docs to answer that precisely.");
    expect(unknown.body.support).toEqual({ url: "/support" });
    expect((await source("invitations-fr", "admin")).body.title).toBe("Inviter votre équipe");
  });

  it("/records-qa answers a deep link on load, in the page's language, with the source view", async () => {
    const load = async (query: string, role: "clinician" | "admin" = "clinician") => {
      const user = h.a.users[role];
      const request = new Request(`${TEST_SITE_URL}/fr/records-qa?${query}`);
      const context = pageContextIn(h, h.a.orgId, { id: user.id, email: user.email }, role);
      return recordsQaPage.loader({ request, context, params: {} } as never);
    };
    const page = await load(`patient=${patientId}&q=${encodeURIComponent("pilule pour l'eau furosemide")}`);
    expect(page.result?.answer).toContain("furosemide 20 mg");
    expect(page.patients.some((p) => p.id === patientId)).toBe(true);
    const opened = await load(`patient=${patientId}&q=lisinopril&source=${page.result?.citations[0]?.id}`);
    expect(opened.source?.content).toBeTruthy();
    const none = await load(`patient=${patientId}&q=${encodeURIComponent("allergie à la pénicilline")}`);
    expect(none.result).toMatchObject({ answer: "Le dossier ne le dit pas.", citations: [] });
    const admin = await load(`q=${encodeURIComponent("Comment inviter un collègue ?")}`, "admin");
    expect(admin.result?.scope).toBe("help");
    expect(admin.patients).toEqual([]);
    expect((await load("q=")).error).toBeNull();
  });

  it("indexes transcript segments with their seconds, and an edit replaces them", async () => {
    const visitId = await transcribedVisit(h);
    const before = await rows({ visitId });
    expect(before.map((r) => r.text)).toEqual(SEGMENTS_EN.map((s) => s.text));
    expect(before[4]?.start_s).toBeCloseTo(16.4);
    const edited = SEGMENTS_EN.map((s) => s.text.replace("lisinopril 10 mg", "losartan 50 mg"));
    await editTranscript({ ...as("staff"), visitId, edit: { baseVersion: 1, segments: edited } });
    const after = await rows({ visitId });
    expect(after.some((r) => r.text.includes("losartan 50 mg"))).toBe(true);
    expect(after.some((r) => r.text.includes("lisinopril"))).toBe(false);
  });

  it("indexes a note's sentences as draft, then signed, then amended; a deleted visit takes its rows", async () => {
    const { noteId, visitId } = await generatedNote(h, createExtractiveEngine());
    const draft = await rows({ noteId });
    expect(draft.length).toBeGreaterThan(0);
    expect(new Set(draft.map((r) => r.note_status))).toEqual(new Set(["draft"]));
    const key = draft[0]?.field ?? "";
    await saveDraft({ ...as("clinician"), noteId, sections: [{ key, text: "Started furosemide 20 mg daily." }] });
    expect((await rows({ noteId })).some((r) => r.text === "Started furosemide 20 mg daily.")).toBe(true);
    await acknowledgeAllChecks(h, noteId);
    await signNote({ ...as("clinician"), noteId });
    expect(new Set((await rows({ noteId })).map((r) => r.note_status))).toEqual(new Set(["signed"]));
    await amendNote({ ...as("owner"), noteId, reason: "dose", sections: [{ key, text: "Started furosemide 40 mg daily." }] });
    const amended = await rows({ noteId });
    expect(amended.some((r) => r.text === "Started furosemide 40 mg daily." && r.note_status === "amended")).toBe(true);
    expect(amended.some((r) => r.text.includes("20 mg"))).toBe(false);

    const other = await transcribedVisit(h);
    expect((await rows({ visitId: other })).length).toBeGreaterThan(0);
    await deleteVisit({ ...as("clinician"), visitId: other, store: h.store });
    expect(await rows({ visitId: other })).toEqual([]);
    expect((await rows({ visitId })).length).toBeGreaterThan(0);
  });

  it("filters by organisation and role before anything is ranked: staff see no note rows, admins nothing", async () => {
    const visitB = await transcribedVisit(h, { orgId: h.b.orgId });
    const visible = (userId: string, orgId: string) =>
      withActor(h.db, { userId, orgId }, async (trx) => {
        const { rows } = await sql<{ record_type: string; org_id: string; n: number }>`
          select record_type, org_id, count(*)::int as n from public.record_chunks group by 1, 2`.execute(trx);
        return rows;
      });
    const clinician = await visible(h.a.users.clinician.id, h.a.orgId);
    expect(new Set(clinician.map((r) => r.record_type))).toEqual(new Set(["transcription", "doctor_note"]));
    expect(clinician.every((r) => r.org_id === h.a.orgId)).toBe(true);
    const staff = await visible(h.a.users.staff.id, h.a.orgId);
    expect(staff.map((r) => r.record_type)).toEqual(["transcription"]);
    expect(await visible(h.a.users.admin.id, h.a.orgId)).toEqual([]);
    // A member of A naming B's organisation sees none of B's rows.
    expect(await visible(h.a.users.owner.id, h.b.orgId)).toEqual([]);
    const b = await visible(h.b.owner.id, h.b.orgId);
    expect(b.every((r) => r.org_id === h.b.orgId && r.record_type === "transcription")).toBe(true);
    expect(b[0]?.n).toBe(2 * SEGMENTS_EN.length);
    expect(visitB).toBeTruthy();
    await expect(
      withActor(h.db, { userId: h.a.users.owner.id, orgId: h.a.orgId }, (trx) =>
        sql`delete from public.record_chunks`.execute(trx),
      ),
    ).rejects.toThrow(/permission denied/);
  });

  it("visit_date: defaults to today in the organisation's zone, accepts a past day, refuses a future or unreal one", async () => {
    await sql`update public.organizations set timezone = 'Pacific/Auckland' where id = ${h.a.orgId}`.execute(h.db.kysely);
    const patientId = await seedPatient(h);
    const now = new Date("2026-03-10T20:00:00Z"); // already 11 March in Auckland
    const base = { ...as("staff"), patientId, title: "", language: "en" as const, consent: true, now };
    const today = await createVisit(base);
    expect((await getVisit({ ...as("staff"), visitId: today.id })).visit_date).toBe("2026-03-11");
    const past = await createVisit({ ...base, visitDate: "2025-12-01" });
    expect((await getVisit({ ...as("staff"), visitId: past.id })).visit_date).toBe("2025-12-01");
    await expect(Promise.resolve().then(() => createVisit({ ...base, visitDate: "2026-03-12" }))).rejects.toMatchObject({
      code: "visit_date_in_future",
    });
    await expect(Promise.resolve().then(() => createVisit({ ...base, visitDate: "2025-02-30" }))).rejects.toMatchObject({
      code: "invalid_visit_date",
    });
    await sql`update public.visits set visit_date = '2024-01-02' where id = ${past.id}`.execute(h.db.kysely);
    await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text)
      values (${h.a.orgId}, ${past.id}, 1, 'import', 'import', 'en', 'Knee X-ray was normal. No fracture.')`.execute(h.db.kysely);
    const { rows: dates } = await sql<{
      d: string;
    }>`select visit_date::text as d from public.record_chunks where visit_id = ${past.id}`.execute(h.db.kysely);
    expect(dates.map((r) => r.d)).toEqual(["2024-01-02", "2024-01-02"]);
  });
});
