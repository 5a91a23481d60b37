import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Actor, withActor } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import * as caseRoute from "#app/routes/resources/api-coding-case.ts";
import * as exportRoute from "#app/routes/resources/api-coding-case-export.ts";
import * as amendRoute from "#app/routes/resources/api-note-amendments.ts";
import * as noteCodingRoute from "#app/routes/resources/api-note-coding.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { signNote } from "#app/services/notes/sign.server.ts";
import { acknowledgeAllChecks } from "#tests/notes/checks-harness.ts";
import { generatedNote, transcribedVisit } from "#tests/notes/notes-harness.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, type VisitHarness, type Who } from "#tests/visits/harness.ts";

// docs/api.md "Coding cases": one case per visit from its signed note, accept/reject/edit/add,
// open → coded → exported, CSV and FHIR export, audit rows, roles (docs/permissions.md "Clinical
// coding"), the amendment that reopens a case, and 0018_coding.sql's row-level security.

const VISIT_TEXT =
  "I have had a cough for two weeks. I have type 2 diabetes and essential hypertension. No fever. The assessment is acute bronchitis.";

describeEachDatabase("coding cases", (target) => {
  let h: VisitHarness;
  let noteId: string;
  let caseId: string;

  beforeAll(async () => {
    h = await openVisitHarness(target);
    const visitId = await transcribedVisit(h, { text: VISIT_TEXT });
    noteId = (await generatedNote(h, createExtractiveEngine(), { visitId })).noteId;
  });
  afterAll(async () => {
    await h.close();
  });

  const open = (id: string, as: Who = "clinician") =>
    call(h, noteCodingRoute, { method: "POST", path: `/api/notes/${id}/coding`, params: { id }, as });
  const get = (as: Who = "clinician") =>
    call(h, caseRoute, { method: "GET", path: `/api/coding/cases/${caseId}`, params: { id: caseId }, as });
  const patch = (json: unknown, as: Who = "clinician") =>
    call(h, caseRoute, { method: "PATCH", path: `/api/coding/cases/${caseId}`, params: { id: caseId }, json, as });
  const exportAs = async (format: string, as: Who = "staff") => {
    const headers = new Headers({ authorization: `Bearer ${h.a.users[as as OrgRole].token}`, "x-org-id": h.a.orgId });
    const res = (await exportRoute.action({
      request: new Request(`http://localhost/api/coding/cases/${caseId}/export?format=${format}`, { method: "POST", headers }),
      context: h.context(),
      params: { id: caseId },
    } as never)) as Response;
    return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
  };
  const inA = (role: OrgRole): Actor => ({ userId: h.a.users[role].id, orgId: h.a.orgId });

  it("a draft note cannot be coded; the signed note opens one case per visit with validated suggestions", async () => {
    expect((await open(noteId)).body.code).toBe("note_not_signed");
    await acknowledgeAllChecks(h, noteId);
    await signNote({ db: h.db, actor: { userId: h.a.users.clinician.id }, orgId: h.a.orgId, noteId });
    const res = await open(noteId);
    expect(res.status).toBe(200);
    caseId = res.body.id;
    expect(res.body.status).toBe("open");
    const codes = res.body.lines.map((l: { code: string }) => l.code);
    expect(codes).toEqual(expect.arrayContaining(["I10", "R05.9"]));
    expect(codes).not.toContain("R50.9");
    for (const s of res.body.suggestions) {
      for (const e of s.evidence) expect(res.body.source_text.slice(e.start, e.end)).toBe(e.quote);
      expect(e0(s).source).toBe("note");
    }
    expect((await open(noteId)).body.id).toBe(caseId);
  });

  it("roles: staff and admins read but do not code; another organisation sees nothing", async () => {
    expect((await open(noteId, "staff")).body.code).toBe("forbidden_role");
    expect((await get("staff")).status).toBe(200);
    expect((await get("admin")).status).toBe(200);
    expect((await get("outsider")).status).toBe(404);
    expect((await patch({ status: "coded" }, "staff")).status).toBe(403);
    expect((await call(h, caseRoute, { method: "GET", path: "/api/coding/cases/x", params: { id: "not-a-uuid" } })).status).toBe(
      404,
    );
  });

  it("accept, reject with a reason, edit, add by search; coded only when every suggestion is decided", async () => {
    const { body } = await get();
    const [first, second, ...rest] = body.lines as Array<{ id: string; code: string }>;
    expect((await patch({ status: "coded" })).body.code).toBe("lines_pending");
    expect((await patch({ operations: [{ op: "add", system: "icd10cm", code: "E11" }] })).body.code).toBe("code_not_billable");
    expect((await patch({ operations: [{ op: "add", system: "icd10cm", code: "Q99.99" }] })).body.code).toBe("unknown_code");
    expect((await patch({ operations: [{ op: "reject", line_id: first?.id }] })).status).toBe(400);
    const done = await patch({
      operations: [
        { op: "accept", line_id: first?.id },
        { op: "reject", line_id: second?.id, reason: "not addressed at this visit" },
        ...rest.map((l) => ({ op: "reject", line_id: l.id, reason: "duplicate" })),
        { op: "add", system: "icd10cm", code: "z720" },
        { op: "add", system: "hcpcs", code: "G0008" },
      ],
      status: "coded",
    });
    expect(done.body).toMatchObject({ status: "coded" });
    expect(done.body.status).toBe("coded");
    const added = done.body.lines.find((l: { code: string }) => l.code === "Z72.0");
    expect(added).toMatchObject({ state: "accepted", origin: "manual", description: "Tobacco use" });
    const rejected = done.body.lines.find((l: { id: string }) => l.id === second?.id);
    expect(rejected).toMatchObject({ state: "rejected", reject_reason: "not addressed at this visit" });
    const proc = done.body.lines.find((l: { code: string }) => l.code === "G0008");
    const edited = await patch({
      operations: [
        // A code no other line holds (the Assessment's code now leads, ADR 43; I10 is another line).
        { op: "edit", line_id: first?.id, code: first?.code === "I15.0" ? "I15.1" : "I15.0" },
        { op: "update", line_id: proc.id, modifiers: ["25"], units: 2, pointers: [added.position] },
      ],
    });
    expect(edited.body.status).toBe("open");
    expect(edited.body.lines.find((l: { id: string }) => l.id === first?.id).suggested_code).toBe(first?.code);
    expect((await patch({ status: "coded" })).body.status).toBe("coded");
    const { rows } = await sql<{
      action: string;
    }>`select action from public.audit_log where entity_id = ${caseId} order by id`.execute(h.db.kysely);
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        "coding.case_opened",
        "coding.line_accepted",
        "coding.line_rejected",
        "coding.line_added",
        "coding.line_edited",
        "coding.line_updated",
        "coding.case_coded",
      ]),
    );
  });

  it("exports CSV and FHIR R4 (staff may), moving the case to exported", async () => {
    // Issue 25: a GET (a link on another site) changes nothing; the export is a POST.
    const headers = new Headers({ authorization: `Bearer ${h.a.users.staff.token}`, "x-org-id": h.a.orgId });
    const viaGet = (await exportRoute.loader()) as Response;
    expect(viaGet.status).toBe(405);
    expect(viaGet.headers.get("allow")).toBe("POST");
    expect(headers.get("x-org-id")).toBe(h.a.orgId);
    expect((await get()).body.status).toBe("coded");
    const csv = await exportAs("csv");
    expect(csv.status).toBe(200);
    expect(csv.type).toContain("text/csv");
    const lines = csv.text.trim().split("\r\n");
    expect(lines[0]).toContain("patient_external_id,rendering_clinician");
    expect(lines.some((l) => l.includes(",icd10cm,Z72.0,Tobacco use"))).toBe(true);
    expect(lines.some((l) => l.includes(",hcpcs,G0008,") && l.includes(",25,2,"))).toBe(true);
    const fhir = JSON.parse((await exportAs("fhir", "admin")).text);
    expect(fhir.resourceType).toBe("Bundle");
    const conditions = fhir.entry.filter((e: { resource: { resourceType: string } }) => e.resource.resourceType === "Condition");
    expect(
      conditions.map((c: { resource: { code: { coding: Array<{ code: string }> } } }) => c.resource.code.coding[0]?.code),
    ).toContain("Z72.0");
    const claim = fhir.entry.find((e: { resource: { resourceType: string } }) => e.resource.resourceType === "Claim").resource;
    expect(claim.item[0]).toMatchObject({ productOrService: { coding: [{ code: "G0008" }] }, quantity: { value: 2 } });
    expect(claim.item[0].diagnosisSequence).toHaveLength(1);
    expect((await get()).body.status).toBe("exported");
    expect((await exportAs("pdf")).status).toBe(400);
    expect((await patch({ operations: [{ op: "add", system: "icd10cm", code: "R05.9" }] })).body.code).toBe("case_exported");
  });

  it("an amendment of the signed note reopens its case with the decisions kept", async () => {
    const note = await call(h, amendRoute, {
      method: "POST",
      path: `/api/notes/${noteId}/amendments`,
      params: { id: noteId },
      json: { sections: [{ key: "assessment", text: "Acute bronchitis. Also asthma." }], reason: "added asthma" },
    });
    expect(note.status).toBe(201);
    const reopened = await open(noteId);
    expect(reopened.body).toMatchObject({ id: caseId, status: "open" });
    expect(reopened.body.reopened_at).not.toBeNull();
    expect(reopened.body.lines.find((l: { code: string }) => l.code === "Z72.0").state).toBe("accepted");
    expect(
      reopened.body.lines.some((l: { code: string; state: string }) => l.code.startsWith("J45") && l.state === "suggested"),
    ).toBe(true);
  });

  it("row-level security: staff cannot change lines or code a case, another organisation reads nothing", async () => {
    await expect(
      withActor(h.db, inA("staff"), (trx) =>
        trx.updateTable("coding_lines").set({ state: "accepted" }).where("case_id", "=", caseId).execute(),
      ),
    ).resolves.toEqual([expect.objectContaining({ numUpdatedRows: 0n })]);
    await expect(
      withActor(h.db, inA("staff"), (trx) =>
        trx.updateTable("coding_cases").set({ status: "coded" }).where("id", "=", caseId).execute(),
      ),
    ).rejects.toThrow();
    await expect(
      withActor(h.db, inA("owner"), (trx) => trx.deleteFrom("coding_lines").where("case_id", "=", caseId).execute()),
    ).rejects.toThrow();
    const other = { userId: h.b.owner.id, orgId: h.b.orgId };
    expect(await withActor(h.db, other, (trx) => trx.selectFrom("coding_cases").select("id").execute())).toEqual([]);
    expect(await withActor(h.db, other, (trx) => trx.selectFrom("coding_lines").select("id").execute())).toEqual([]);
  });
});

const e0 = (s: { evidence: Array<{ source: string }> }) => s.evidence[0] ?? { source: "note" };
