import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as recordsQaPage from "#app/routes/app/records-qa.tsx";
import * as askRoute from "#app/routes/resources/api-rag-ask.ts";
import * as searchRoute from "#app/routes/resources/api-rag-search.ts";
import * as sourceRoute from "#app/routes/resources/api-rag-source.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { saveDraft } from "#app/services/notes/notes.server.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, pageContextIn, seedPatient, type VisitHarness, type Who } from "#tests/visits/harness.ts";
import { generatedNote, patientOf, transcribedVisit } from "../notes/notes-harness.ts";

// /api/rag/ask, /search and /source over a real database (docs/api.md "Ask Murmur"): answers cite
// what the caller's role may read in the current organisation only, with stable 4xx codes.
describeEachDatabase("Ask Murmur API", (target) => {
  let h: VisitHarness;
  let visitId: string;
  let patientId: string;
  let noteId: string;
  let frPatient: string;

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

  it("answers from the patient's transcript with a citation to the visit and the second", async () => {
    const res = await ask({ query: "What dose of lisinopril does she take?", patientId });
    expect(res.status).toBe(200);
    // The note drafted from the same visit says it too: both are cited, each line with its marker.
    const lines: string[] = res.body.answer.split("\n");
    const line = lines.find((l) => l.includes("I take lisinopril 10 mg daily for my blood pressure.")) ?? "";
    const marker = Number(/\[(\d+)\]$/.exec(line)?.[1]);
    expect(res.body.usedFallback).toBe(false);
    expect(res.body.citations).toHaveLength(lines.length);
    expect(res.body.citations[marker - 1]).toMatchObject({
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
    expect(Object.keys(debug.body.citations[0].features).sort()).toEqual(["all", "own", "phrase", "score"]);
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
});
