import { sql } from "kysely";
import { createElement } from "react";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { NoteEditor } from "#app/components/notes/note-editor.tsx";
import { NoteList } from "#app/components/notes/note-list.tsx";
import { VisitNotes } from "#app/components/notes/visit-notes.tsx";
import { action, loader } from "#app/routes/app/coding.tsx";
import { loader as dashboardLoader } from "#app/routes/app/dashboard.tsx";
import { loader as transcribingLoader } from "#app/routes/app/transcribing.tsx";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { handleGenerateNote } from "#app/services/notes/jobs/generate-note.server.ts";
import { type MemberOrg, orgContext } from "#app/services/org-context/current-org.ts";
import { renderAt } from "#tests/billing/render.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, pageContextIn, seedVisit, type VisitHarness } from "#tests/visits/harness.ts";
import { acknowledgeAllChecks } from "./checks-harness.ts";
import { generatedNote, requestNote, transcribedVisit } from "./notes-harness.ts";

// /coding on a real database: the recent notes; ?id= of a note in another of the user's
// organisations switches to it (ADR 7: redirect with ?org=); a malformed id, an unknown note or
// one of an organisation the user is not in is the page-validity 404; form posts run the services.
describeEachDatabase("/coding page", (target) => {
  let h: VisitHarness;
  let noteInB: string;
  const engine = createExtractiveEngine();

  beforeAll(async () => {
    h = await openVisitHarness(target);
    // The clinician of A also works in B.
    await sql`insert into public.org_members (org_id, user_id, role) values (${h.b.orgId}, ${h.a.users.clinician.id}, 'clinician')`.execute(
      h.db.kysely,
    );
    const visitInB = await transcribedVisit(h, { orgId: h.b.orgId });
    noteInB = (await requestNote(h, visitInB, { template_id: "builtin:soap" }, "outsider")).body.id;
    await handleGenerateNote({ data: { orgId: h.b.orgId, noteId: noteInB } }, { db: h.db, engine });
  });

  afterAll(async () => {
    await h.close();
  });

  const contextIn = (orgId: string, user: { id: string; email: string }, role: MemberOrg["role"]) =>
    pageContextIn(h, orgId, user, role);

  async function open(query: string, user = h.a.users.clinician, role: MemberOrg["role"] = "clinician") {
    const request = new Request(`http://murmur.test/fr/coding${query}`);
    try {
      return { value: await loader({ request, context: contextIn(h.a.orgId, user, role), params: {} } as never) };
    } catch (thrown) {
      return { thrown };
    }
  }

  async function post(fields: Record<string, string>, user = h.a.users.clinician, role: MemberOrg["role"] = "clinician") {
    const request = new Request("http://murmur.test/fr/coding", { method: "POST", body: new URLSearchParams(fields) });
    try {
      return { value: await action({ request, context: contextIn(h.a.orgId, user, role), params: {} } as never) };
    } catch (thrown) {
      return { thrown };
    }
  }

  it("lists the organisation's recent notes, and opens one with its transcript pieces", async () => {
    const { noteId } = await generatedNote(h, engine);
    const list = await open("");
    expect(list.value).toMatchObject({ kind: "list" });
    const notes = (list.value as { notes: { id: string }[] }).notes.map((n) => n.id);
    expect(notes).toContain(noteId);
    expect(notes).not.toContain(noteInB);
    const one = await open(`?id=${noteId}`);
    expect(one.value).toMatchObject({ kind: "note", note: { id: noteId, status: "draft" }, canSign: true, audioUrl: null });
    expect((one.value as { transcript: unknown[] }).transcript.length).toBe(8);
  });

  it("switches to the note's organisation when the user is an owner or clinician there", async () => {
    const { thrown } = await open(`?id=${noteInB}`);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("location")).toBe(`/fr/coding?id=${noteInB}&org=${h.b.orgId}`);
  });

  it("is the 404 page for a malformed id, an unknown note and a note of an organisation the user is not in", async () => {
    for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const { thrown } = await open(`?id=${id}`);
      expect(thrown).toMatchObject({ data: { kind: "invalid" }, init: { status: 404 } });
    }
    const { thrown } = await open(`?id=${noteInB}`, h.a.users.owner, "owner");
    expect(thrown).toMatchObject({ data: { kind: "invalid" }, init: { status: 404 } });
  });

  it("tells staff and admins that notes are not part of their role", async () => {
    expect((await open("", h.a.users.staff, "staff")).value).toEqual({ kind: "forbidden" });
    expect((await open("", h.a.users.admin, "admin")).value).toEqual({ kind: "forbidden" });
  });

  it("generates from the /transcribing form and redirects to the editor; refusals come back as codes", async () => {
    const visitId = await transcribedVisit(h);
    const { thrown } = await post({ intent: "generate", visit_id: visitId, template_id: "builtin:soap", language: "" });
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("location")).toMatch(/^\/fr\/coding\?id=[0-9a-f-]{36}$/);

    const bare = await seedVisit(h);
    const refused = await post({ intent: "generate", visit_id: bare, template_id: "builtin:soap" });
    expect(refused.value).toMatchObject({ data: { error: "transcript_required" }, init: { status: 409 } });

    const { noteId } = await generatedNote(h, engine);
    const staff = await post({ intent: "sign", note_id: noteId }, h.a.users.staff, "staff");
    expect(staff.value).toMatchObject({ data: { error: "forbidden_role" }, init: { status: 403 } });
    const saved = await post({ intent: "save", note_id: noteId, "section.plan": "- Rest" });
    expect((saved.thrown as Response).status).toBe(302);
    await acknowledgeAllChecks(h, noteId);
    const signed = await post({ intent: "sign", note_id: noteId, "section.plan": "- Rest\n- Fluids" });
    expect((signed.thrown as Response).status).toBe(302);
    const { rows } = await sql<{ status: string; content: { key: string; text: string }[] }>`
      select status, content from public.notes where id = ${noteId}`.execute(h.db.kysely);
    expect(rows[0]?.status).toBe("signed");
    expect(rows[0]?.content.find((s) => s.key === "plan")?.text).toBe("- Rest\n- Fluids");
    const bad = await post({ intent: "rate", note_id: noteId, rating: "9" });
    expect(bad.value).toMatchObject({ data: { error: "invalid_input" }, init: { status: 400 } });
  });

  it("the visit's page lists its notes and the dashboard the drafts waiting for a signature, for the roles that sign", async () => {
    const visit = await transcribedVisit(h);
    const noteId = (await requestNote(h, visit, { template_id: "builtin:soap" })).body.id;
    await handleGenerateNote({ data: { orgId: h.a.orgId, noteId } }, { db: h.db, engine });
    const page = (url: string, role: MemberOrg["role"], user = h.a.users[role]) => ({
      request: new Request(`http://murmur.test${url}`),
      context: contextIn(h.a.orgId, user, role),
      params: {},
    });
    const visitPage = (await transcribingLoader(page(`/transcribing?visit_id=${visit}&transcript=1`, "clinician") as never)) as {
      notes: { id: string; status: string }[];
    };
    expect(visitPage.notes).toEqual([expect.objectContaining({ id: noteId, status: "draft" })]);
    const staffVisitPage = (await transcribingLoader(page(`/transcribing?visit_id=${visit}&transcript=1`, "staff") as never)) as {
      notes: unknown[];
    };
    expect(staffVisitPage.notes).toEqual([]);

    const dashboard = (await dashboardLoader(page("/dashboard", "clinician") as never)) as { drafts: { id: string }[] };
    expect(dashboard.drafts.map((d) => d.id)).toContain(noteId);
    expect(dashboard.drafts.map((d) => d.id)).not.toContain(noteInB);
    const staffDashboard = (await dashboardLoader(page("/dashboard", "staff") as never)) as { drafts: unknown };
    expect(staffDashboard.drafts).toBeNull();
  });

  it("prints note times on the organisation's clock (23:30 in New York is not tomorrow), on the server as in the browser", async () => {
    const visit = await transcribedVisit(h);
    const noteId = (await requestNote(h, visit, { template_id: "builtin:soap" })).body.id;
    await handleGenerateNote({ data: { orgId: h.a.orgId, noteId } }, { db: h.db, engine });
    // Drafted 5 March 2024, 23:30 in New York (already the 6th in UTC)…
    await sql`update public.notes set created_at = '2024-03-06T04:30:00Z' where id = ${noteId}`.execute(h.db.kysely);
    // …and signed at 00:30 local, with the clock pinned (the signature's time is the server's clock).
    await acknowledgeAllChecks(h, noteId);
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2024-03-06T05:30:00Z") });
    try {
      expect(((await post({ intent: "sign", note_id: noteId })).thrown as Response).status).toBe(302);
    } finally {
      vi.useRealTimers();
    }
    const inNewYork = (url: string) => {
      const context = contextIn(h.a.orgId, h.a.users.clinician, "clinician");
      const state = context.get(orgContext);
      if (!state) throw new Error("no organisation");
      context.set(orgContext, { ...state, org: { ...state.org, timezone: "America/New_York" } });
      return { request: new Request(`http://murmur.test${url}`), context, params: {} } as never;
    };
    const timeOf = (html: string, iso: string) =>
      new RegExp(`dateTime="${iso.replace(/[.]/g, "\\.")}"[^>]*>([^<]*)</time>`, "i").exec(html)?.[1];

    const visitPage = (await transcribingLoader(inNewYork(`/transcribing?visit_id=${visit}&transcript=1`))) as {
      notes: Parameters<typeof VisitNotes>[0]["notes"];
      timeZone: string;
    };
    expect(visitPage.timeZone).toBe("America/New_York");
    const visitHtml = await renderAt("/transcribing", createElement(VisitNotes, visitPage));
    expect(timeOf(visitHtml, "2024-03-06T04:30:00.000Z")).toMatch(/^Mar 5, 2024.*11:30\sPM$/);

    const list = (await loader(inNewYork("/coding"))) as { notes: Parameters<typeof NoteList>[0]["notes"]; timeZone: string };
    const listHtml = await renderAt("/fr/coding", createElement(NoteList, list));
    expect(timeOf(listHtml, "2024-03-06T04:30:00.000Z")).toBe("5 mars 2024, 23:30");

    const editor = (await loader(inNewYork(`/coding?id=${noteId}`))) as Parameters<typeof NoteEditor>[0]["page"] & {
      timeZone: string;
    };
    const editorHtml = await renderAt("/coding", createElement(NoteEditor, { page: editor, timeZone: editor.timeZone }));
    // The signature line and the version history: 00:30 on the 6th in New York, not 05:30 UTC.
    expect(editorHtml.match(/Mar 6, 2024, 12:30\sAM/g)?.length).toBeGreaterThanOrEqual(2);
    expect(editorHtml).not.toMatch(/5:30\sAM/);
  });
});
