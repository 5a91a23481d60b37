import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import * as transcribeRoute from "#app/routes/resources/api-visit-transcribe.ts";
import * as speakerRoute from "#app/routes/resources/api-visit-transcript-speaker.ts";
import { handleTranscribeVisit, type TranscribePort } from "#app/services/jobs/transcribe-visit.server.ts";
import { keepEditedSpeakers } from "#app/services/visits/transcript-speakers.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, type VisitHarness } from "./harness.ts";
import { recordingBoss, uploadedVisit } from "./pipeline-helpers.ts";

// Issue 26 "who said what": segments carry a speaker; a person's correction is a new, audited
// version, and a re-run keeps it.

/** An engine that names speakers as diarisation would: the first segment the clinician's. */
function diarisedEngine() {
  let calls = 0;
  const transcribe: TranscribePort = async () => {
    calls++;
    return {
      text: "what brings you in my knee hurts",
      segments: [
        { start: 0, end: 1.5, text: "what brings you in", speaker: "clinician" },
        // A re-run cuts the audio slightly differently.
        { start: 1.5 + calls * 0.1, end: 3, text: "my knee hurts", speaker: "clinician" },
      ],
      engine: "fake",
      model: "fake-1",
    };
  };
  return { transcribe };
}

describeEachDatabase("speaker roles on transcript segments", (target) => {
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

  const job = (visitId: string) => ({ id: "test", data: { orgId: h.a.orgId, visitId } });
  const setSpeaker = (visitId: string, json: unknown, as: "clinician" | "admin" | "outsider" = "clinician") =>
    call(h, speakerRoute, {
      method: "POST",
      path: `/api/visits/${visitId}/transcript/speaker`,
      params: { id: visitId },
      json,
      as,
    });
  const segmentsOf = async (visitId: string) =>
    (await call(h, visitRoute, { method: "GET", path: `/api/visits/${visitId}`, params: { id: visitId }, as: "clinician" })).body
      .transcription.segments;

  it("GET shows each segment's speaker; a correction is a new version, audited, and a re-run keeps it", async () => {
    const engine = diarisedEngine();
    const id = await uploadedVisit(h);
    expect(await handleTranscribeVisit(job(id), { db: h.db, store: h.store, transcribe: engine.transcribe })).toBe("transcribed");
    expect(await segmentsOf(id)).toEqual([
      { start: 0, end: 1.5, text: "what brings you in", speaker: "clinician" },
      { start: 1.6, end: 3, text: "my knee hurts", speaker: "clinician" },
    ]);

    const res = await setSpeaker(id, { base_version: 1, segment: 1, speaker: "patient" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id, version: 2, unchanged: false });
    const segments = await segmentsOf(id);
    expect(segments[1]).toEqual({ start: 1.6, end: 3, text: "my knee hurts", speaker: "patient", speaker_edited: true });
    expect(segments[0].speaker).toBe("clinician");

    const versions = await sql<{ version: number; source: string; segments: { speaker: string }[] }>`
      select version, source, segments from public.transcriptions where visit_id = ${id} order by version`.execute(h.db.kysely);
    expect(versions.rows.map((r) => [r.version, r.source, r.segments[1]?.speaker])).toEqual([
      [1, "engine", "clinician"],
      [2, "edit", "patient"],
    ]);
    const audit = await sql<{ actor_id: string; details: Record<string, unknown> }>`
      select actor_id, details from public.audit_log where entity_id = ${id} and action = 'visit.transcript_edited'`.execute(
      h.db.kysely,
    );
    expect(audit.rows).toEqual([
      {
        actor_id: h.a.users.clinician.id,
        details: { version: 2, based_on: 1, segment: 1, speaker_from: "clinician", speaker_to: "patient" },
      },
    ]);

    // The same correction again adds nothing; an old base version is a conflict.
    expect((await setSpeaker(id, { base_version: 2, segment: 1, speaker: "patient" })).body).toMatchObject({ unchanged: true });
    expect((await setSpeaker(id, { base_version: 1, segment: 0, speaker: "patient" })).status).toBe(409);

    // Re-run: the engine calls the second segment the clinician's again; the correction stays.
    expect(
      (await call(h, transcribeRoute, { method: "POST", path: `/api/visits/${id}/transcribe`, params: { id }, as: "clinician" }))
        .status,
    ).toBe(202);
    expect(await handleTranscribeVisit(job(id), { db: h.db, store: h.store, transcribe: engine.transcribe })).toBe("transcribed");
    const rerun = await segmentsOf(id);
    expect(rerun.map((s: { speaker: string }) => s.speaker)).toEqual(["clinician", "patient"]);
    expect(rerun[1].start).toBe(1.7);
  });

  it("refuses bad input with stable codes and other tenants' visits", async () => {
    const id = await uploadedVisit(h);
    expect(await handleTranscribeVisit(job(id), { db: h.db, store: h.store, transcribe: diarisedEngine().transcribe })).toBe(
      "transcribed",
    );
    expect((await setSpeaker(id, { base_version: 1, segment: 0, speaker: "nurse" })).status).toBe(400);
    const missing = await setSpeaker(id, { base_version: 1, segment: 9, speaker: "patient" });
    expect([missing.status, missing.body.code]).toEqual([400, "transcript_segment_not_found"]);
    expect((await setSpeaker(id, { base_version: 1, segment: 0, speaker: "patient" }, "admin")).status).toBe(403);
    expect((await setSpeaker(id, { base_version: 1, segment: 0, speaker: "patient" }, "outsider")).status).toBe(404);
  });
});

it("keepEditedSpeakers takes a hand-set speaker only where the old segment covers half the new one", () => {
  const previous = [
    { start: 0, end: 2, text: "a", speaker: "patient" as const, speaker_edited: true as const },
    { start: 2, end: 4, text: "b", speaker: "clinician" as const },
  ];
  const fresh = [
    { start: 0.2, end: 1.8, text: "a", speaker: "clinician" as const },
    { start: 1.5, end: 4, text: "b", speaker: "clinician" as const },
  ];
  expect(keepEditedSpeakers(fresh, previous).map((s) => s.speaker)).toEqual(["patient", "clinician"]);
});
