import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import * as audioRoute from "#app/routes/resources/api-visit-audio.ts";
import { handleTranscribeVisit, type TranscribePort } from "#app/services/jobs/transcribe-visit.server.ts";
import { createSpeechRegistry, parseSpeechEnv } from "#app/services/speech/config.server.ts";
import { createTranscribePort } from "#app/services/speech/transcribe-file.server.ts";
import { audioKey } from "#app/services/storage/keys.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { bytesOf, call, openVisitHarness, seedPatient, seedVisit, sha256, type VisitHarness } from "./harness.ts";
import { wavFile } from "./pipeline-helpers.ts";

// Issue 5 "Fault tests": garbage or unsupported files end in a clear failed state with the reason,
// and nothing else is lost. The files pass the upload's first-bytes check (they claim to be audio),
// so the real pipeline — ffprobe/ffmpeg, then pocketsphinx — is what refuses them.

const realEngine = createTranscribePort(createSpeechRegistry(parseSpeechEnv({ ASR_ENGINE: "pocketsphinx" })));
const hasFfmpeg = (process.env.PATH ?? "").split(":").some((dir) => fs.existsSync(path.join(dir, "ffmpeg")));

/** A one-second MPEG-4 video with no sound track, made by ffmpeg now (an m4a by its first bytes). */
function silentVideo(): Uint8Array {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "murmur-video-")), "video.mp4");
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-f",
    "lavfi",
    "-i",
    "testsrc=duration=1:size=64x64:rate=5",
    "-c:v",
    "mpeg4",
    "-an",
    out,
  ]);
  const bytes = Uint8Array.from(fs.readFileSync(out));
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return bytes;
}

describeEachDatabase("fault: garbage and unsupported audio", (target) => {
  let h: VisitHarness;

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });

  afterAll(async () => {
    await h.close();
  });

  const upload = (visitId: string, body: Uint8Array, contentType: string) =>
    call(h, audioRoute, {
      method: "POST",
      path: `/api/visits/${visitId}/audio`,
      params: { id: visitId },
      body,
      headers: { "content-type": contentType },
      as: "clinician",
    });
  const getVisit = (id: string) =>
    call(h, visitRoute, { method: "GET", path: `/api/visits/${id}`, params: { id }, as: "clinician" });
  const run = (visitId: string, transcribe: TranscribePort = realEngine) =>
    handleTranscribeVisit({ id: "fault", data: { orgId: h.a.orgId, visitId } }, { db: h.db, store: h.store, transcribe });

  /** A titled visit of `patientId`, plus a sibling visit of the same patient that already has a transcript. */
  async function visitWithSibling() {
    const patientId = await seedPatient(h, h.a.orgId, "Garbage Fault Patient");
    const visitId = await seedVisit(h, { patientId });
    await sql`update public.visits set title = 'Crown prep' where id = ${visitId}`.execute(h.db.kysely);
    const siblingId = await seedVisit(h, { patientId, status: "transcribed" });
    await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text)
      values (${h.a.orgId}, ${siblingId}, 1, 'import', 'import', 'en', 'earlier visit notes')`.execute(h.db.kysely);
    return { patientId, visitId, siblingId, before: (await getVisit(visitId)).body };
  }

  const cases: { name: string; type: string; body: () => Uint8Array }[] = [
    {
      name: "random bytes behind a WebM header",
      type: "audio/webm",
      body: () => {
        const b = bytesOf(64 * 1024, 7);
        b.set([0x1a, 0x45, 0xdf, 0xa3]);
        return b;
      },
    },
    {
      name: "a RIFF/WAVE header over garbage",
      type: "audio/wav",
      body: () => {
        const b = bytesOf(32 * 1024, 11);
        b.set(new TextEncoder().encode("RIFF"), 0);
        b.set(new TextEncoder().encode("WAVE"), 8);
        return b;
      },
    },
    { name: "a video with no sound track", type: "audio/mp4", body: silentVideo },
  ];

  // Issue 26: three seconds of silence decode to no words: a failure with its own translated reason.
  it.skipIf(!hasFfmpeg)(
    "a silent recording → the visit is failed as audio_no_speech, not an empty transcript",
    async () => {
      const { visitId } = await visitWithSibling();
      const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "murmur-silence-")), "silence.wav");
      execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "3", out]);
      const file = Uint8Array.from(fs.readFileSync(out));
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
      expect((await upload(visitId, file, "audio/wav")).status).toBe(200);
      expect(await run(visitId)).toBe("failed");
      const failed = (await getVisit(visitId)).body;
      expect([failed.status, failed.failure.code, failed.transcription]).toEqual(["failed", "audio_no_speech", null]);
    },
    240_000,
  );

  for (const c of cases) {
    it.skipIf(!hasFfmpeg)(
      `${c.name} → the visit is failed with the reason; the patient, its other visits and the file stay`,
      async () => {
        const { patientId, visitId, siblingId, before } = await visitWithSibling();
        const file = c.body();
        const uploaded = await upload(visitId, file, c.type);
        expect(uploaded.status).toBe(200);
        expect(uploaded.body.status).toBe("uploaded");

        expect(await run(visitId)).toBe("failed");
        const failed = (await getVisit(visitId)).body;
        expect(failed.status).toBe("failed");
        expect(failed.failure.code).toBe("audio_unreadable");
        expect(failed.failure.reason).toMatch(/\S{3,}/);
        expect(failed.transcription).toBeNull();
        // Nothing else changed: the visit's own record, its stored file, the patient and the sibling visit.
        expect(failed).toMatchObject({
          title: "Crown prep",
          language: before.language,
          consent_at: before.consent_at,
          patient: { id: patientId, display_name: "Garbage Fault Patient" },
          audio: { sha256: sha256(file), bytes: file.length, source: "file" },
        });
        expect(await h.store.exists(audioKey(h.a.orgId, visitId, sha256(file)))).toBe(true);
        const sibling = (await getVisit(siblingId)).body;
        expect(sibling.status).toBe("transcribed");
        expect(sibling.transcription.text).toBe("earlier visit notes");
        const audit = await sql<{ action: string; details: { code: string } }>`
        select action, details from public.audit_log where entity_id = ${visitId} and action = 'visit.transcription_failed'`.execute(
          h.db.kysely,
        );
        expect(audit.rows).toEqual([{ action: "visit.transcription_failed", details: { code: "audio_unreadable" } }]);
      },
    );
  }

  it.skipIf(!hasFfmpeg)(
    "a failed visit takes a good file afterwards and is transcribed; a file that is not audio at all is 415 and changes nothing",
    async () => {
      const { visitId } = await visitWithSibling();
      const garbage = bytesOf(4096, 3);
      garbage.set([0x1a, 0x45, 0xdf, 0xa3]);
      await upload(visitId, garbage, "audio/webm");
      expect(await run(visitId)).toBe("failed");

      const text = new TextEncoder().encode("%PDF-1.7 not a recording at all");
      const refused = await upload(visitId, text, "audio/ogg");
      expect(refused.status).toBe(415);
      expect(refused.body.code).toBe("audio_unsupported");
      const still = (await getVisit(visitId)).body;
      expect(still.status).toBe("failed");
      expect(still.audio.sha256).toBe(sha256(garbage));

      // A real WAV header and PCM: the upload replaces the garbage; a stand-in engine keeps this quick.
      const good = wavFile(16000);
      expect((await upload(visitId, good, "audio/wav")).body.status).toBe("uploaded");
      const engine: TranscribePort = async () => ({
        text: "recovered",
        segments: [{ start: 0, end: 1, text: "recovered" }],
        engine: "stand-in",
      });
      expect(await run(visitId, engine)).toBe("transcribed");
      const after = (await getVisit(visitId)).body;
      expect(after).toMatchObject({
        status: "transcribed",
        failure: null,
        transcription: { text: "recovered" },
        title: "Crown prep",
      });
    },
  );
});
