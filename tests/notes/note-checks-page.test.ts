import { createElement } from "react";
import { afterAll, beforeAll, expect, it } from "vitest";
import { NoteEditor } from "#app/components/notes/note-editor.tsx";
import { action, loader } from "#app/routes/app/coding.tsx";
import * as pdfRoute from "#app/routes/resources/api-note-pdf.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { getNote, saveDraft } from "#app/services/notes/notes.server.ts";
import { renderAt } from "#tests/billing/render.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, pageContextIn, type VisitHarness } from "#tests/visits/harness.ts";
import { getRaw } from "#tests/visits/pipeline-helpers.ts";
import { generatedNote } from "./notes-harness.ts";
import { pdfPages } from "./pdf-text.ts";

// Issue 27 without JavaScript: the /coding form posts. Signing with open checks comes back as
// 409 unresolved_checks, the server-rendered editor lists each open check with its own
// "Acknowledge" form and a disabled Sign with the count; acknowledging through the form clears
// the gate; the signed record and its PDF name who acknowledged.
describeEachDatabase("/coding sign gate (form posts)", (target) => {
  let h: VisitHarness;
  beforeAll(async () => {
    h = await openVisitHarness(target);
  });
  afterAll(async () => {
    await h.close();
  });

  const context = () => pageContextIn(h, h.a.orgId, h.a.users.clinician, "clinician");
  async function post(fields: Record<string, string>) {
    const request = new Request("http://murmur.test/coding", { method: "POST", body: new URLSearchParams(fields) });
    try {
      return { value: await action({ request, context: context(), params: {} } as never) };
    } catch (thrown) {
      return { thrown };
    }
  }
  const editorHtml = async (noteId: string, path = "/coding") => {
    const page = (await loader({
      request: new Request(`http://murmur.test${path}?id=${noteId}`),
      context: context(),
      params: {},
    } as never)) as Parameters<typeof NoteEditor>[0]["page"] & { timeZone: string };
    return renderAt(path, createElement(NoteEditor, { page, timeZone: page.timeZone }));
  };

  it("refuses, lists, acknowledges through forms, then signs; the PDF keeps who acknowledged", async () => {
    const args = { db: h.db, actor: { userId: h.a.users.clinician.id }, orgId: h.a.orgId };
    const { noteId } = await generatedNote(h, createExtractiveEngine());
    const key = (await getNote({ ...args, noteId })).sections[0]?.key ?? "";
    await saveDraft({
      ...args,
      noteId,
      sections: [{ key, text: "Denies fever or shortness of breath. A little short of breath." }],
    });

    const refused = await post({ intent: "sign", note_id: noteId });
    expect(refused.value).toMatchObject({ data: { error: "unresolved_checks" }, init: { status: 409 } });

    const open = (await getNote({ ...args, noteId })).checks.filter((c) => c.status === "open");
    const html = await editorHtml(noteId);
    expect(html).toContain("Checks before signing");
    expect(html.match(/value="acknowledge"/g)?.length).toBe(open.length);
    expect(html).toMatch(new RegExp(`<button[^>]*disabled[^>]*data-testid="note-sign"[^>]*>Sign \\(${open.length} to check\\)`));
    expect(html).toContain("A finding is both denied and reported.");

    const bad = await post({ intent: "acknowledge", note_id: noteId, check_id: "nope" });
    expect(bad.value).toMatchObject({ data: { error: "check_not_found" }, init: { status: 400 } });
    for (const c of open) {
      const done = await post({ intent: "acknowledge", note_id: noteId, check_id: c.id, reason: "Looked at it" });
      expect((done.thrown as Response).status).toBe(302);
    }
    expect(await editorHtml(noteId)).toMatch(/data-testid="note-sign"[^>]*>Sign note</);
    const signed = await post({ intent: "sign", note_id: noteId });
    expect((signed.thrown as Response).status).toBe(302);

    const signedHtml = await editorHtml(noteId);
    expect(signedHtml).toContain(
      open.length === 1 ? "1 check acknowledged before signing" : `${open.length} checks acknowledged before signing`,
    );
    const res = await getRaw(h, pdfRoute.loader, { path: `/api/notes/${noteId}/pdf`, params: { id: noteId }, as: "clinician" });
    const text = (await pdfPages(new Uint8Array(await res.arrayBuffer()))).join("\n");
    expect(text).toContain("acknowledged before signing");
    expect(text).toContain("Acknowledged by");
    expect(text).toContain("Looked at it");
  });
});
