import { afterAll, beforeAll, expect, it } from "vitest";
import * as suggestRoute from "#app/routes/resources/api-coding-suggest.ts";
import * as noteCodingRoute from "#app/routes/resources/api-note-coding.ts";
import { importCodeSystem } from "#app/services/coding/import/import.server.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { signNote } from "#app/services/notes/sign.server.ts";
import { getOrg, updateOrg } from "#app/services/orgs/orgs.server.ts";
import { acknowledgeAllChecks } from "#tests/notes/checks-harness.ts";
import { generatedNote, transcribedVisit } from "#tests/notes/notes-harness.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, type VisitHarness } from "#tests/visits/harness.ts";

// docs/coding.md "Procedure suggestions" on both databases: the organisation's imported CDT feeds
// procedure lines (tooth in Universal, surfaces) on its coding cases and on POST /api/coding/suggest;
// another organisation (org B, whose owner is the outsider), which imported nothing, gets none. Test descriptors only.

const CDT_FILE =
  "code,short_descriptor,long_descriptor\n" +
  'D2392,Resin composite two surfaces posterior,"Resin-based composite, two surfaces, posterior"\n' +
  'D7140,Extraction erupted tooth,"Extraction, erupted tooth or exposed root"\n';
const TEXT = "Extraction of erupted tooth 46 (FDI) today. Resin-based composite on tooth #14, MO surfaces, posterior.";

describeEachDatabase("procedure suggestions from imported CDT", (target) => {
  let h: VisitHarness;

  beforeAll(async () => {
    h = await openVisitHarness(target);
    await importCodeSystem({
      db: h.db,
      actor: { userId: h.a.users.owner.id },
      orgId: h.a.orgId,
      system: "cdt",
      version: "2026",
      file: new TextEncoder().encode(CDT_FILE),
      preview: false,
    });
  });
  afterAll(async () => {
    await h.close();
  });

  it("POST /api/coding/suggest with code_systems cdt: lines with Universal tooth and surfaces, exact offsets", async () => {
    const res = await call(h, suggestRoute, {
      method: "POST",
      path: "/api/coding/suggest",
      json: { text: TEXT, code_systems: ["icd10cm", "cdt"] },
    });
    expect(res.status).toBe(200);
    const cdt = res.body.suggestions.filter((s: { system: string }) => s.system === "cdt");
    expect(cdt.map((s: { code: string; tooth: string }) => `${s.code}/${s.tooth}`).sort()).toEqual(["D2392/14", "D7140/30"]);
    expect(cdt.find((s: { code: string }) => s.code === "D2392").surfaces).toBe("MO");
    for (const s of res.body.suggestions) for (const e of s.evidence) expect(TEXT.slice(e.start, e.end)).toBe(e.quote);
    // Without "cdt" in code_systems, no procedure lines.
    const dx = await call(h, suggestRoute, { method: "POST", path: "/api/coding/suggest", json: { text: TEXT } });
    expect(dx.body.suggestions.some((s: { system: string }) => s.system === "cdt")).toBe(false);
    // The first call builds the engine's indexes (once per process): slow on a loaded shared machine.
  }, 180_000);

  it("an organisation that imported no CDT gets no procedure lines", async () => {
    const res = await call(h, suggestRoute, {
      method: "POST",
      path: "/api/coding/suggest",
      json: { text: TEXT, code_systems: ["cdt"] },
      as: "outsider",
    });
    expect(res.status).toBe(200);
    expect(res.body.suggestions).toEqual([]);
  });

  const owner = () => ({ db: h.db, actor: { userId: h.a.users.owner.id }, orgId: h.a.orgId });
  const caseLines = async () => {
    const visitId = await transcribedVisit(h, { text: TEXT });
    const { noteId } = await generatedNote(h, createExtractiveEngine(), { visitId });
    await acknowledgeAllChecks(h, noteId);
    await signNote({ db: h.db, actor: { userId: h.a.users.clinician.id }, orgId: h.a.orgId, noteId });
    const res = await call(h, noteCodingRoute, { method: "POST", path: `/api/notes/${noteId}/coding`, params: { id: noteId } });
    expect(res.status).toBe(200);
    return res.body.lines as Array<{ kind: string; system: string; tooth: string | null }>;
  };

  it("the organisation's coding profile decides which imported set a case's procedure lines come from", async () => {
    // Medical by default: the imported CDT is not used for cases.
    expect((await getOrg(owner())).coding_profile).toBe("medical");
    expect((await caseLines()).filter((l) => l.kind === "procedure")).toEqual([]);
    await updateOrg({ ...owner(), patch: { coding_profile: "dental" } });
    expect((await getOrg(owner())).coding_profile).toBe("dental");
    const procedures = (await caseLines()).filter((l) => l.kind === "procedure");
    expect(procedures.length).toBeGreaterThan(0);
    for (const l of procedures) {
      expect(l.system).toBe("cdt");
      expect(["14", "30"]).toContain(l.tooth);
    }
    // Clinicians do not change it (owners and admins edit Settings → Organisation).
    await expect(
      updateOrg({ db: h.db, actor: { userId: h.a.users.clinician.id }, orgId: h.a.orgId, patch: { coding_profile: "medical" } }),
    ).rejects.toMatchObject({ code: "forbidden_role" });
  });
});
