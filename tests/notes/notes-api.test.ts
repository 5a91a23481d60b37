import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import * as noteRoute from "#app/routes/resources/api-note.ts";
import * as amendRoute from "#app/routes/resources/api-note-amendments.ts";
import * as pdfRoute from "#app/routes/resources/api-note-pdf.ts";
import * as ratingRoute from "#app/routes/resources/api-note-rating.ts";
import * as regenerateRoute from "#app/routes/resources/api-note-regenerate.ts";
import * as signRoute from "#app/routes/resources/api-note-sign.ts";
import * as visitNotesRoute from "#app/routes/resources/api-visit-notes.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, type VisitHarness, type Who } from "#tests/visits/harness.ts";
import { getRaw } from "#tests/visits/pipeline-helpers.ts";
import { acknowledgeAllChecks } from "./checks-harness.ts";
import { DIALOGUE_FR, generatedNote, requestNote, transcribedVisit } from "./notes-harness.ts";
import { pdfPages } from "./pdf-text.ts";

// docs/api.md "Notes": shapes, the draft → signed → amended life of a note, who may do what
// (owners and clinicians; staff and admins 403; another organisation 404), hashes and the
// per-section edit distance stored at signing.

describeEachDatabase("notes API", (target) => {
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
  // A save names the version it edited (issue 25): the one the editor last read.
  const put = async (noteId: string, sections: unknown, as: Who = "clinician") => {
    const version = (await get(noteId)).body.version ?? 1;
    return call(h, noteRoute, {
      method: "PUT",
      path: `/api/notes/${noteId}`,
      params: { id: noteId },
      json: { sections, version },
      as,
    });
  };
  // Issue 27's gate is tested in note-checks.test.ts: here a signer has looked at every check first.
  const sign = async (noteId: string, as: Who = "clinician") => {
    if (as === "clinician" || as === "owner") await acknowledgeAllChecks(h, noteId);
    return call(h, signRoute, { method: "POST", path: `/api/notes/${noteId}/sign`, params: { id: noteId }, as });
  };
  const amend = (noteId: string, body: unknown, as: Who = "clinician") =>
    call(h, amendRoute, { method: "POST", path: `/api/notes/${noteId}/amendments`, params: { id: noteId }, json: body, as });

  it("GET /api/notes/:id has the documented shape: sections with sentences and evidence, omissions, versions", async () => {
    const { noteId, visitId } = await generatedNote(h, engine);
    const res = await get(noteId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: noteId,
      status: "draft",
      visit_id: visitId,
      template_id: "builtin:soap",
      template_name: "SOAP note",
      language: "en",
      versions: [],
      signed_at: null,
      content_hash: null,
      rating: null,
    });
    for (const section of res.body.sections) {
      expect(Object.keys(section).sort()).toEqual(["key", "sentences", "text", "title"]);
      for (const sentence of section.sentences) {
        expect(typeof sentence.text).toBe("string");
        expect(typeof sentence.supported).toBe("boolean");
        for (const e of sentence.evidence) expect(Object.keys(e).sort()).toEqual(["end", "quote", "start"]);
      }
    }
    // The visit mentions benzonatate and a one-week follow-up; whatever the note lacks is listed.
    expect(Array.isArray(res.body.omissions)).toBe(true);
    for (const o of res.body.omissions) expect(o).toMatchObject({ kind: expect.any(String), text: expect.any(String) });

    const list = await call(h, visitNotesRoute, {
      method: "GET",
      path: `/api/visits/${visitId}/notes`,
      params: { id: visitId },
      as: "clinician",
    });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      expect.objectContaining({ id: noteId, status: "draft", template_id: "builtin:soap", language: "en", signed_at: null }),
    ]);
  });

  it("an omission list names what the note does not carry", async () => {
    const { noteId } = await generatedNote(h, engine);
    // Remove the plan: the benzonatate prescription said in the visit is now an omission.
    await put(noteId, [
      { key: "plan", text: "" },
      { key: "medications", text: "" },
    ]);
    await sql`update public.notes set status = 'generating', pending_sections = array['chief_complaint'] where id = ${noteId}`.execute(
      h.db.kysely,
    );
    const { handleGenerateNote } = await import("#app/services/notes/jobs/generate-note.server.ts");
    await handleGenerateNote({ data: { orgId: h.a.orgId, noteId } }, { db: h.db, engine });
    const note = (await get(noteId)).body;
    expect(note.omissions.some((o: { kind: string; text: string }) => /benzonatate/i.test(o.text))).toBe(true);
    expect(note.omissions[0].evidence[0]).toMatchObject({
      start: expect.any(Number),
      end: expect.any(Number),
      quote: expect.any(String),
    });
  });

  it("a draft edit re-splits sentences, keeps evidence of unchanged ones, marks typed ones clinician, adds a version", async () => {
    const { noteId } = await generatedNote(h, engine);
    const before = (await get(noteId)).body;
    const section = before.sections.find((s: { sentences: unknown[] }) => s.sentences.length > 0);
    const kept = section.sentences[0];
    const text = `${section.text}\n- Patient asked for a work note.`;
    const res = await put(noteId, [{ key: section.key, text }]);
    expect(res.status).toBe(200);
    const after = res.body.sections.find((s: { key: string }) => s.key === section.key);
    expect(after.text).toBe(text);
    expect(after.sentences[0]).toEqual(kept);
    expect(after.sentences.at(-1)).toEqual({
      text: "Patient asked for a work note.",
      evidence: [],
      supported: true,
      source: "clinician",
    });
    expect(res.body.versions).toEqual([
      expect.objectContaining({ version: 1, kind: "draft_edit", author_id: h.a.users.clinician.id }),
    ]);
    expect(res.body.versions[0].content_hash).toMatch(/^[0-9a-f]{64}$/);
    // Saving the same text again adds nothing.
    expect((await put(noteId, [{ key: section.key, text }])).body.versions).toHaveLength(1);
    expect(await put(noteId, [{ key: "nope", text: "x" }])).toMatchObject({ status: 400, body: { code: "unknown_section" } });
    expect(await put(noteId, "not an array")).toMatchObject({ status: 400, body: { code: "validation_failed" } });
  });

  it("signs once (hash over the canonical content, edit distance per section), then only amendments change it", async () => {
    const { noteId } = await generatedNote(h, engine);
    const generated = (await get(noteId)).body;
    const plan = generated.sections.find((s: { key: string }) => s.key === "plan");
    await put(noteId, [{ key: "plan", text: `${plan.text}\n- Rest` }]);

    expect(await sign(noteId, "staff")).toMatchObject({ status: 403, body: { code: "forbidden_role" } });
    expect(await sign(noteId, "admin")).toMatchObject({ status: 403, body: { code: "forbidden_role" } });
    const signed = await sign(noteId, "clinician");
    expect(signed.status).toBe(200);
    expect(signed.body.status).toBe("signed");
    expect(signed.body.signed_by).toBe(h.a.users.clinician.id);
    const version = signed.body.versions.at(-1);
    expect(version).toMatchObject({ kind: "signed", author_id: h.a.users.clinician.id });
    expect(version.edit_distance.plan).toBe("\n- Rest".length);
    expect(version.edit_distance.subjective).toBe(0);
    const canonical = JSON.stringify({
      language: "en",
      sections: signed.body.sections.map((s: { key: string; title: string; text: string }) => [s.key, s.title, s.text]),
    });
    expect(signed.body.content_hash).toBe(createHash("sha256").update(canonical).digest("hex"));
    expect(version.content_hash).toBe(signed.body.content_hash);

    expect(await sign(noteId, "owner")).toMatchObject({ status: 409, body: { code: "note_already_signed" } });
    expect(await put(noteId, [{ key: "plan", text: "changed" }])).toMatchObject({
      status: 409,
      body: { code: "note_already_signed" },
    });
    const regen = await call(h, regenerateRoute, {
      method: "POST",
      path: `/api/notes/${noteId}/sections/plan/regenerate`,
      params: { id: noteId, key: "plan" },
      as: "clinician",
    });
    expect(regen).toMatchObject({ status: 409, body: { code: "note_already_signed" } });

    // Amendments: a reason, the author and time, a new hash; the signed version stays as it was.
    expect(await amend(noteId, { sections: [{ key: "plan", text: "x" }] })).toMatchObject({ status: 400 });
    expect(await amend(noteId, { sections: [{ key: "plan", text: `${plan.text}\n- Rest` }], reason: "typo" })).toMatchObject({
      status: 400,
      body: { code: "no_change" },
    });
    const amended = await amend(
      noteId,
      { sections: [{ key: "plan", text: `${plan.text}\n- Rest for three days` }], reason: "Duration added" },
      "owner",
    );
    expect(amended.status).toBe(201);
    expect(amended.body.status).toBe("amended");
    expect(amended.body.versions.at(-1)).toMatchObject({
      kind: "amendment",
      author_id: h.a.users.owner.id,
      amendment_reason: "Duration added",
    });
    expect(amended.body.content_hash).not.toBe(signed.body.content_hash);
    expect(amended.body.signed_at).toBe(signed.body.signed_at);
    const versions = (await get(noteId)).body.versions.map((v: { kind: string }) => v.kind);
    expect(versions).toEqual(["draft_edit", "signed", "amendment"]);

    const draft = await generatedNote(h, engine);
    expect(await amend(draft.noteId, { sections: [{ key: "plan", text: "x" }], reason: "r" })).toMatchObject({
      status: 409,
      body: { code: "note_not_signed" },
    });
    const audit = await sql<{
      action: string;
    }>`select action from public.audit_log where entity = 'note' and entity_id = ${noteId}
        and action not in ('note.read', 'note.pdf', 'note.check_acknowledged') order by id`.execute(h.db.kysely); // writes; reads: tests/orgs/read-audit.test.ts
    expect(audit.rows.map((r) => r.action)).toEqual(["note.generate", "note.sign", "note.amend"]);
  });

  it("a visit with a signed note cannot be deleted; a visit with a draft goes with it", async () => {
    const visitRoute = await import("#app/routes/resources/api-visit.ts");
    const del = (visitId: string) =>
      call(h, visitRoute, { method: "DELETE", path: `/api/visits/${visitId}`, params: { id: visitId }, as: "clinician" });
    const signed = await generatedNote(h, engine);
    await sign(signed.noteId);
    expect(await del(signed.visitId)).toMatchObject({ status: 403, body: { code: "forbidden_role" } });
    expect((await get(signed.noteId)).status).toBe(200);
    const draft = await generatedNote(h, engine);
    expect((await del(draft.visitId)).status).toBe(204);
    expect((await get(draft.noteId)).status).toBe(404);
  });

  it("rates a note 1–5 with a comment", async () => {
    const { noteId } = await generatedNote(h, engine);
    const rate = (body: unknown, as: Who = "clinician") =>
      call(h, ratingRoute, { method: "POST", path: `/api/notes/${noteId}/rating`, params: { id: noteId }, json: body, as });
    expect(await rate({ rating: 4, comment: "Plan was thin" })).toMatchObject({
      status: 200,
      body: { rating: 4, rating_comment: "Plan was thin" },
    });
    expect(await rate({ rating: 6 })).toMatchObject({ status: 400, body: { code: "validation_failed" } });
    expect(await rate({ rating: 3 }, "staff")).toMatchObject({ status: 403 });
    expect((await get(noteId)).body).toMatchObject({ rating: 4, rating_comment: "Plan was thin" });
  });

  it("keeps the note in its own language: a French visit with a French template", async () => {
    const visitId = await transcribedVisit(h, { language: "fr", text: DIALOGUE_FR });
    const { noteId } = await generatedNote(h, engine, { visitId });
    const note = (await get(noteId)).body;
    expect(note.language).toBe("fr");
    expect(note.template_name).toBe("Note SOAP");
    expect(note.sections.map((s: { title: string }) => s.title)).toContain("Subjectif");
    expect(note.sections.map((s: { text: string }) => s.text).join("\n")).toMatch(/paracétamol/i);
    // Imported text has no segments: evidence still points at the dialogue's lines in order.
    const evidence = note.sections.flatMap((s: { sentences: { evidence: unknown[] }[] }) =>
      s.sentences.flatMap((x) => x.evidence),
    );
    expect(evidence.length).toBeGreaterThan(0);
  });

  it("isolates notes: another organisation 404, staff and admins 403, malformed ids 404, unknown templates 404", async () => {
    const { noteId, visitId } = await generatedNote(h, engine);
    expect(await get(noteId, "outsider")).toMatchObject({ status: 404, body: { code: "note_not_found" } });
    expect(await get(noteId, "staff")).toMatchObject({ status: 403, body: { code: "forbidden_role" } });
    expect(await get(noteId, "admin")).toMatchObject({ status: 403, body: { code: "forbidden_role" } });
    expect(await get(noteId, "owner")).toMatchObject({ status: 200 });
    expect(await get("not-a-uuid")).toMatchObject({ status: 404, body: { code: "note_not_found" } });
    expect(await sign(noteId, "outsider")).toMatchObject({ status: 404 });
    expect(await put(noteId, [{ key: "plan", text: "x" }], "outsider")).toMatchObject({ status: 404 });
    expect(await amend(noteId, { sections: [{ key: "plan", text: "x" }], reason: "r" }, "outsider")).toMatchObject({
      status: 404,
    });
    // The outsider's own visit id in org A's context, and org A's visit in the outsider's: 404.
    expect(await requestNote(h, visitId, { template_id: "builtin:soap" }, "outsider")).toMatchObject({ status: 404 });
    expect(await requestNote(h, visitId, { template_id: "builtin:soap" }, "staff")).toMatchObject({ status: 403 });
    expect(await requestNote(h, visitId, { template_id: "builtin:nope" })).toMatchObject({
      status: 404,
      body: { code: "template_not_found" },
    });
    expect(await requestNote(h, visitId, { template_id: "builtin:soap", language: "de" })).toMatchObject({ status: 400 });
    const list = await call(h, visitNotesRoute, {
      method: "GET",
      path: `/api/visits/${visitId}/notes`,
      params: { id: visitId },
      as: "outsider",
    });
    expect(list.status).toBe(404);
    const pdf = await getRaw(h, pdfRoute.loader, { path: `/api/notes/${noteId}/pdf`, params: { id: noteId }, as: "outsider" });
    expect(pdf.status).toBe(404);
  });

  it("refuses every note route to admins and staff (403), another organisation (404) and anonymous callers (401)", async () => {
    const { noteId, visitId } = await generatedNote(h, engine);
    const eventsRoute = await import("#app/routes/resources/api-note-events.ts");
    const routes = [
      { mod: visitNotesRoute, method: "GET", path: `/api/visits/${visitId}/notes`, params: { id: visitId } },
      {
        mod: visitNotesRoute,
        method: "POST",
        path: `/api/visits/${visitId}/notes`,
        params: { id: visitId },
        json: { template_id: "builtin:soap" },
      },
      { mod: noteRoute, method: "GET", path: `/api/notes/${noteId}`, params: { id: noteId } },
      {
        mod: noteRoute,
        method: "PUT",
        path: `/api/notes/${noteId}`,
        params: { id: noteId },
        json: { sections: [{ key: "plan", text: "x" }], version: 1 },
      },
      {
        mod: regenerateRoute,
        method: "POST",
        path: `/api/notes/${noteId}/sections/plan/regenerate`,
        params: { id: noteId, key: "plan" },
      },
      { mod: ratingRoute, method: "POST", path: `/api/notes/${noteId}/rating`, params: { id: noteId }, json: { rating: 2 } },
      { mod: signRoute, method: "POST", path: `/api/notes/${noteId}/sign`, params: { id: noteId } },
      {
        mod: amendRoute,
        method: "POST",
        path: `/api/notes/${noteId}/amendments`,
        params: { id: noteId },
        json: { sections: [{ key: "plan", text: "x" }], reason: "r" },
      },
      { mod: eventsRoute, method: "GET", path: `/api/notes/${noteId}/events`, params: { id: noteId } },
      { mod: pdfRoute, method: "GET", path: `/api/notes/${noteId}/pdf`, params: { id: noteId } },
    ] as const;
    const expected: Record<string, number> = { admin: 403, staff: 403, outsider: 404, anonymous: 401 };
    for (const route of routes) {
      for (const [who, status] of Object.entries(expected)) {
        const res = await call(h, route.mod, {
          method: route.method,
          path: route.path,
          params: route.params,
          json: "json" in route ? route.json : undefined,
          as: who as Who,
        });
        expect({ route: `${route.method} ${route.path}`, who, status: res.status }).toEqual({
          route: `${route.method} ${route.path}`,
          who,
          status,
        });
      }
    }
    // Nothing changed: still the untouched draft.
    expect((await get(noteId)).body).toMatchObject({ status: "draft", versions: [], rating: null });
  });

  it("renders the note as a PDF, with the letterhead, signature, hash and page numbers once signed", async () => {
    const { noteId } = await generatedNote(h, engine);
    await sign(noteId);
    const res = await getRaw(h, pdfRoute.loader, { path: `/api/notes/${noteId}/pdf`, params: { id: noteId }, as: "clinician" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    const { rows } = await sql<{ name: string }>`select name from public.organizations where id = ${h.a.orgId}`.execute(
      h.db.kysely,
    );
    const pages = await pdfPages(bytes);
    expect(pages).toHaveLength(1);
    const [page] = pages as [string];
    expect(page.startsWith(rows[0]?.name ?? "?")).toBe(true);
    expect(page).toContain("SOAP note");
    expect(page).toContain("Subjective");
    expect(page).toContain("Status: Signed");
    expect(page).toContain(`Content SHA-256: ${(await get(noteId)).body.content_hash}`);
    expect(page).toContain("Page 1 of 1");
  });

  it("writes a long French draft over several pages, accents intact, each page numbered in French", async () => {
    const visitId = await transcribedVisit(h, { language: "fr", text: DIALOGUE_FR });
    const { noteId } = await generatedNote(h, engine, { visitId });
    const section = (await get(noteId)).body.sections[0];
    const paragraph = "Douleur à l'épaule après la chute ; aucune fièvre, pas de nausée. Œdème léger, sensibilité accrue. ";
    const text = Array.from({ length: 40 }, (_, i) => `- ${i + 1}. ${paragraph.repeat(3)}`).join("\n");
    expect((await put(noteId, [{ key: section.key, text }])).status).toBe(200);
    const res = await getRaw(h, pdfRoute.loader, { path: `/api/notes/${noteId}/pdf`, params: { id: noteId }, as: "clinician" });
    const pages = await pdfPages(new Uint8Array(await res.arrayBuffer()));
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} sur ${pages.length}`);
    });
    const all = pages.join(" ");
    expect(all).toContain("Note SOAP");
    expect(all).toContain("Statut: Brouillon — non signée");
    expect(all).toContain("Douleur à l'épaule après la chute ; aucune fièvre, pas de nausée. Œdème léger");
    expect(all).toContain("• 40.");
    expect(pages.at(-1)).toContain("Brouillon : cette note n'est pas signée.");
  });

  it("prints the PDF's visit and signature times on the organisation's clock, named", async () => {
    const { rows: org } = await sql<{
      timezone: string;
    }>`select timezone from public.organizations where id = ${h.a.orgId}`.execute(h.db.kysely);
    await sql`update public.organizations set timezone = 'America/New_York' where id = ${h.a.orgId}`.execute(h.db.kysely);
    try {
      const { noteId, visitId } = await generatedNote(h, engine);
      // Visit on 5 March 2024 at 23:30 in New York (already the 6th in UTC), signed at 00:30 local on the 6th.
      await sql`update public.visits set created_at = '2024-03-06T04:30:00Z' where id = ${visitId}`.execute(h.db.kysely);
      vi.useFakeTimers({ toFake: ["Date"], now: new Date("2024-03-06T05:30:00Z") });
      try {
        expect((await sign(noteId)).status).toBe(200);
      } finally {
        vi.useRealTimers();
      }
      const res = await getRaw(h, pdfRoute.loader, { path: `/api/notes/${noteId}/pdf`, params: { id: noteId }, as: "clinician" });
      const text = (await pdfPages(new Uint8Array(await res.arrayBuffer()))).join(" ");
      expect(text).toContain("2024-03-05 23:30 America/New_York");
      expect(text).toContain("2024-03-06 00:30 America/New_York");
      expect(text).not.toContain("UTC");
    } finally {
      await sql`update public.organizations set timezone = ${org[0]?.timezone ?? "UTC"} where id = ${h.a.orgId}`.execute(
        h.db.kysely,
      );
    }
  });
});
