import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import type { OrgRole } from "#app/db/schema.ts";
import * as transcribingPage from "#app/routes/app/transcribing.tsx";
import * as transcribeRoute from "#app/routes/resources/api-visit-transcribe.ts";
import * as transcriptRoute from "#app/routes/resources/api-visit-transcript.ts";
import { handleTranscribeVisit, type TranscribePort } from "#app/services/jobs/transcribe-visit.server.ts";
import { type MemberOrg, orgContext } from "#app/services/org-context/current-org.ts";
import { userContext } from "#app/services/session/user-context.ts";
import type { TranscribingPage } from "#app/services/transcribing/page.server.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { responseOf } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, seedVisit, type VisitHarness } from "./harness.ts";
import { fakeEngine, recordingBoss, until, uploadedVisit } from "./pipeline-helpers.ts";

// Issue 5 "Transcript view … editing with versions kept (the original stays), re-run": a re-run
// is a new engine version that a retried job never duplicates; an edit is a new version too.

describeEachDatabase("transcript re-runs and edits", (target) => {
  let h: VisitHarness;
  let boss: ReturnType<typeof recordingBoss>;

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });

  afterAll(async () => {
    await h.close();
  });

  beforeEach(() => {
    boss = recordingBoss(h);
  });

  afterEach(() => {
    boss.stop();
  });

  const deps = (transcribe: TranscribePort, progressIntervalMs?: number) => ({
    db: h.db,
    store: h.store,
    transcribe,
    progressIntervalMs,
  });
  const job = (visitId: string) => ({ id: "test", data: { orgId: h.a.orgId, visitId } });
  const versions = async (visitId: string) =>
    (
      await sql<{
        version: number;
        source: string;
        engine: string;
        text: string;
        segments: unknown;
        transcription_round: number;
      }>`
        select version, source, engine, text, segments, transcription_round from public.transcriptions
        where visit_id = ${visitId} order by version`.execute(h.db.kysely)
    ).rows;
  const visitRow = async (visitId: string) =>
    (
      await sql<{ status: string; transcription_round: number; transcription_progress: number | null }>`
        select status, transcription_round, transcription_progress from public.visits where id = ${visitId}`.execute(h.db.kysely)
    ).rows[0];
  const rerun = (visitId: string, as: OrgRole | "outsider" = "clinician") =>
    call(h, transcribeRoute, { method: "POST", path: `/api/visits/${visitId}/transcribe`, params: { id: visitId }, as });

  /** A visit transcribed once (version 1, round 1) by the fake engine. */
  async function transcribedVisit(engine = fakeEngine()): Promise<string> {
    const id = await uploadedVisit(h);
    expect(await handleTranscribeVisit(job(id), deps(engine.transcribe))).toBe("transcribed");
    return id;
  }

  it("a re-run queues the job again and writes version 2; a retried job of that round writes nothing more", async () => {
    const engine = fakeEngine();
    const id = await transcribedVisit(engine);
    boss.sent.length = 0;

    const res = await rerun(id);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id, status: "uploaded", round: 2 });
    expect(boss.sent).toEqual([{ queue: "transcribe-visit", data: { orgId: h.a.orgId, visitId: id }, key: id }]);
    expect(await visitRow(id)).toMatchObject({ status: "uploaded", transcription_round: 2 });

    expect(await handleTranscribeVisit(job(id), deps(engine.transcribe))).toBe("transcribed");
    // The retry of the same round (a worker presumed dead, the job fetched again).
    expect(await handleTranscribeVisit(job(id), deps(engine.transcribe))).toBe("already_transcribed");
    expect(engine.calls).toHaveLength(2);
    const rows = await versions(id);
    expect(rows.map((r) => [r.version, r.source, r.text, r.transcription_round])).toEqual([
      [1, "engine", "take 1", 1],
      [2, "engine", "take 2", 2],
    ]);
    expect((await visitRow(id))?.status).toBe("transcribed");

    const audit = await sql<{ actor_id: string | null; details: { round: number } }>`
      select actor_id, details from public.audit_log where entity_id = ${id} and action = 'visit.transcription_rerun'`.execute(
      h.db.kysely,
    );
    expect(audit.rows).toEqual([{ actor_id: h.a.users.clinician.id, details: { round: 2, previous_status: "transcribed" } }]);
  });

  it("two jobs of one re-run round at once still leave one new version", async () => {
    const id = await transcribedVisit();
    expect((await rerun(id, "owner")).status).toBe(202);
    const engine = fakeEngine();
    const outcomes = await Promise.all([
      handleTranscribeVisit(job(id), deps(engine.transcribe)),
      handleTranscribeVisit(job(id), deps(engine.transcribe)),
    ]);
    expect(outcomes.sort()).toEqual(["already_transcribed", "transcribed"]);
    expect((await versions(id)).map((r) => r.version)).toEqual([1, 2]);
  });

  it("a re-run is for owners and clinicians, needs audio, and waits for a running transcription", async () => {
    const id = await transcribedVisit();
    for (const who of ["staff", "admin"] as const) {
      const res = await rerun(id, who);
      expect(res.status, who).toBe(403);
      expect(res.body.code).toBe("forbidden_role");
    }
    const foreign = await rerun(id, "outsider");
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("visit_not_found");
    const draft = await seedVisit(h);
    expect((await rerun(draft)).body.code).toBe("no_audio");
    expect((await rerun(id)).status).toBe(202);
    const again = await rerun(id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("transcription_in_progress");
    expect((await visitRow(id))?.transcription_round).toBe(2);
    const get = await call(h, transcribeRoute, { method: "GET", path: `/api/visits/${id}/transcribe`, params: { id } });
    expect(get.status).toBe(405);
  });

  it("the job stores its progress on the visit at most once per interval, and clears it when done", async () => {
    const id = await uploadedVisit(h);
    const seen: (number | null)[] = [];
    const engine = fakeEngine(async (_call, options) => {
      options.onProgress?.(0.25);
      // Within the interval: dropped.
      options.onProgress?.(0.5);
      await until("the first progress write", async () => (await visitRow(id))?.transcription_progress === 0.25);
      await new Promise((resolve) => setTimeout(resolve, 150));
      seen.push((await visitRow(id))?.transcription_progress ?? null);
    });
    expect(await handleTranscribeVisit(job(id), deps(engine.transcribe, 60_000))).toBe("transcribed");
    expect(seen).toEqual([0.25]);
    expect(await visitRow(id)).toMatchObject({ status: "transcribed", transcription_progress: null });

    // With writes allowed at once, each report lands, in order.
    expect((await rerun(id)).status).toBe(202);
    const fast = fakeEngine(async (_call, options) => {
      for (const done of [0.2, 0.4, 0.6]) options.onProgress?.(done);
      await until("the last progress write", async () => (await visitRow(id))?.transcription_progress === 0.6);
    });
    expect(await handleTranscribeVisit(job(id), deps(fast.transcribe, 0))).toBe("transcribed");
    expect((await visitRow(id))?.transcription_progress).toBeNull();
  });

  // ---- edits, through the /transcribing page's action

  function pageContext(role: OrgRole) {
    const user = h.a.users[role];
    const context = h.context();
    const org = {
      id: h.a.orgId,
      name: "A",
      slug: "a",
      kind: "practice",
      plan: "Clinic",
      pms: "none",
      timezone: "UTC",
      region: "us",
      trial_ends_at: null,
      role,
    } as unknown as MemberOrg;
    context.set(userContext, { id: user.id, email: user.email });
    context.set(orgContext, { user: { id: user.id, email: user.email }, org, role, orgs: [org], switchedFrom: null });
    return context;
  }

  async function submit(
    role: OrgRole,
    fields: [string, string][],
  ): Promise<{ status: number; location: string | null; error?: string }> {
    const body = new URLSearchParams(fields);
    const request = new Request(`${TEST_SITE_URL}/fr/transcribing`, { method: "POST", body });
    try {
      const result = (await transcribingPage.action({ request, context: pageContext(role), params: {} } as never)) as unknown;
      const data = result as { data?: { error?: string }; init?: { status?: number } };
      return { status: data.init?.status ?? 200, location: null, error: data.data?.error };
    } catch (thrown) {
      const res = await responseOf(() => {
        throw thrown;
      });
      return { status: res.status, location: res.headers.get("location") };
    }
  }

  async function loadPage(role: OrgRole, visitId: string): Promise<Extract<TranscribingPage, { kind: "visit" }>> {
    const request = new Request(`${TEST_SITE_URL}/transcribing?visit_id=${visitId}&transcript=1`);
    const page = (await transcribingPage.loader({
      request,
      context: pageContext(role),
      params: {},
    } as never)) as TranscribingPage;
    if (page.kind !== "visit") throw new Error(`expected the visit page, got ${page.kind}`);
    return page;
  }

  const edit = (role: OrgRole, visitId: string, base: number, segments: string[]) =>
    submit(role, [
      ["intent", "edit"],
      ["visit_id", visitId],
      ["base_version", String(base)],
      ...segments.map((s): [string, string] => ["segment", s]),
    ]);

  it("saving an edit adds version 2 (engine edit, the engine's timings); version 1 stays and is shown as the original", async () => {
    const id = await transcribedVisit();
    const saved = await edit("staff", id, 1, ["Take", "  one  "]);
    expect(saved).toEqual({ status: 302, location: `/fr/transcribing?visit_id=${id}&transcript=1` });
    const rows = await versions(id);
    expect(rows.map((r) => [r.version, r.source, r.engine, r.text])).toEqual([
      [1, "engine", "fake", "take 1"],
      [2, "edit", "edit", "Take one"],
    ]);
    expect(rows[1]?.segments).toEqual([
      { start: 0, end: 1.5, text: "Take", speaker: null },
      { start: 1.5, end: 3, text: "one", speaker: null },
    ]);

    const page = await loadPage("clinician", id);
    expect(page.visit.transcription).toMatchObject({ version: 2, text: "Take one" });
    expect(page.transcript.source).toBe("edit");
    expect(page.transcript.original).toEqual({
      version: 1,
      engine: "fake",
      text: "take 1",
      segments: [
        { start: 0, end: 1.5, text: "take", speaker: null },
        { start: 1.5, end: 3, text: "1", speaker: null },
      ],
    });
    expect(page.transcript.canRerun).toBe(true);
    expect((await loadPage("staff", id)).transcript.canRerun).toBe(false);

    const audit = await sql<{ actor_id: string; details: Record<string, unknown> }>`
      select actor_id, details from public.audit_log where entity_id = ${id} and action = 'visit.transcript_edited'`.execute(
      h.db.kysely,
    );
    expect(audit.rows).toEqual([{ actor_id: h.a.users.staff.id, details: { version: 2, based_on: 1, characters: 8 } }]);

    // Editing the edit: version 3; the original is still version 1.
    expect((await edit("clinician", id, 2, ["", "One."])).status).toBe(302);
    expect((await versions(id)).map((r) => r.text)).toEqual(["take 1", "Take one", "One."]);
    expect((await loadPage("owner", id)).transcript.original?.version).toBe(1);
  });

  it("word confidences (issue 15) are stored with the engine's version, shown by the page, and dropped from a segment the clinician edits", async () => {
    const transcribe: TranscribePort = async () => ({
      text: "take lisinopril daily",
      segments: [
        { start: 0, end: 1.5, text: "take lisinopril", confidence: [0.98, 0.31] },
        { start: 1.5, end: 3, text: "daily", confidence: [0.9] },
      ],
      engine: "fake",
      model: "fake-1",
    });
    const id = await uploadedVisit(h);
    expect(await handleTranscribeVisit(job(id), deps(transcribe))).toBe("transcribed");
    expect((await versions(id))[0]?.segments).toEqual([
      { start: 0, end: 1.5, text: "take lisinopril", confidence: [0.98, 0.31], speaker: null },
      { start: 1.5, end: 3, text: "daily", confidence: [0.9], speaker: null },
    ]);
    expect((await loadPage("clinician", id)).visit.transcription?.segments[0]).toEqual({
      start: 0,
      end: 1.5,
      text: "take lisinopril",
      confidence: [0.98, 0.31],
      speaker: null,
    });

    expect((await edit("clinician", id, 1, ["take lisinopril", "twice daily"])).status).toBe(302);
    expect((await versions(id))[1]?.segments).toEqual([
      { start: 0, end: 1.5, text: "take lisinopril", confidence: [0.98, 0.31], speaker: null },
      { start: 1.5, end: 3, text: "twice daily", speaker: null },
    ]);
  });

  it("an edit of an older version, a wrong segment count, an empty text or no change adds nothing", async () => {
    const id = await transcribedVisit();
    expect((await edit("clinician", id, 1, ["a", "b"])).status).toBe(302);
    expect(await edit("clinician", id, 1, ["c", "d"])).toMatchObject({ status: 409, error: "transcript_conflict" });
    expect(await edit("clinician", id, 2, ["only one"])).toMatchObject({ status: 400, error: "transcript_segments_mismatch" });
    expect(await edit("clinician", id, 2, [" ", ""])).toMatchObject({ status: 400, error: "transcript_empty" });
    expect((await edit("clinician", id, 2, ["a", "b"])).status).toBe(302);
    expect(await edit("admin", id, 2, ["x", "y"])).toMatchObject({ status: 403, error: "forbidden_role" });
    expect(
      await submit("clinician", [
        ["intent", "edit"],
        ["visit_id", "nope"],
        ["base_version", "2"],
      ]),
    ).toMatchObject({
      status: 400,
      error: "visit_not_found",
    });
    expect((await versions(id)).map((r) => r.version)).toEqual([1, 2]);
  });

  it("an imported transcript (no segments) is edited as a whole text; a visit without one cannot be edited", async () => {
    const id = await seedVisit(h);
    const none = await submit("clinician", [
      ["intent", "edit"],
      ["visit_id", id],
      ["base_version", "1"],
      ["text", "x"],
    ]);
    expect(none).toMatchObject({ status: 409, error: "no_transcript" });
    const imported = await call(h, transcriptRoute, {
      method: "POST",
      path: `/api/visits/${id}/transcript`,
      params: { id },
      json: { text: "Patient well." },
    });
    expect(imported.status).toBe(201);
    const saved = await submit("clinician", [
      ["intent", "edit"],
      ["visit_id", id],
      ["base_version", "1"],
      ["text", "Patient is well."],
    ]);
    expect(saved.status).toBe(302);
    expect((await versions(id)).map((r) => [r.source, r.text])).toEqual([
      ["import", "Patient well."],
      ["edit", "Patient is well."],
    ]);
    expect((await loadPage("staff", id)).transcript.original).toMatchObject({
      version: 1,
      engine: "import",
      text: "Patient well.",
    });
  });

  it("the page's re-run button: owners and clinicians only", async () => {
    const id = await transcribedVisit();
    expect(
      await submit("staff", [
        ["intent", "rerun"],
        ["visit_id", id],
      ]),
    ).toMatchObject({ status: 403, error: "forbidden_role" });
    expect(
      await submit("owner", [
        ["intent", "rerun"],
        ["visit_id", id],
      ]),
    ).toEqual({
      status: 302,
      location: `/fr/transcribing?visit_id=${id}&transcript=1`,
    });
    expect(await visitRow(id)).toMatchObject({ status: "uploaded", transcription_round: 2 });
    const page = await loadPage("owner", id);
    expect(page.visit.status).toBe("uploaded");
    expect(page.transcript.progress).toBeNull();
  });
});
