import fs from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as audioRoute from "#app/routes/resources/api-visit-audio.ts";
import * as chunkRoute from "#app/routes/resources/api-visit-audio-chunk.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { bytesOf, call, openVisitHarness, seedVisit, sha256, type VisitHarness } from "./harness.ts";
import { wavFile } from "./pipeline-helpers.ts";

// Issue 5 "upload an existing file": the raw body with an audio/* type, streamed to disk,
// recognised by its first bytes; garbage or unsupported files get a clear 4xx and nothing is lost.
describeEachDatabase("whole-file audio upload", (target) => {
  let h: VisitHarness;

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });

  afterAll(async () => {
    await h.close();
  });

  const upload = (visitId: string, body: Uint8Array, contentType = "audio/wav", headers: Record<string, string> = {}) =>
    call(h, audioRoute, {
      method: "POST",
      path: `/api/visits/${visitId}/audio`,
      params: { id: visitId },
      body,
      headers: { "content-type": contentType, ...headers },
    });
  const row = async (visitId: string) =>
    (
      await sql<{ status: string; audio_key: string | null; audio_content_type: string | null }>`
        select status, audio_key, audio_content_type from public.visits where id = ${visitId}`.execute(h.db.kysely)
    ).rows[0];

  it("stores a WAV file byte for byte and moves the visit to uploaded; the same file again answers the same", async () => {
    const visitId = await seedVisit(h);
    const wav = wavFile(16000);
    const first = await upload(visitId, wav);
    expect(first).toMatchObject({
      status: 200,
      body: {
        id: visitId,
        status: "uploaded",
        audio: { source: "file", bytes: wav.byteLength, sha256: sha256(wav), chunk_count: 0 },
      },
    });
    const stored = await row(visitId);
    expect(stored?.audio_content_type).toBe("audio/wav");
    expect(sha256(fs.readFileSync(h.store.localPath(stored?.audio_key ?? "") ?? ""))).toBe(sha256(wav));
    expect(await upload(visitId, wav)).toEqual(first);
    expect(await upload(visitId, wavFile(8000))).toMatchObject({ status: 409, body: { code: "visit_closed" } });
    const audits =
      await sql`select 1 from public.audit_log where entity_id = ${visitId} and action = 'visit.audio_uploaded'`.execute(
        h.db.kysely,
      );
    expect(audits.rows).toHaveLength(1);
  });

  it("a body that is not audio is 415 and the visit is left as it was", async () => {
    const visitId = await seedVisit(h);
    expect(await upload(visitId, wavFile(100), "text/plain")).toMatchObject({
      status: 415,
      body: { code: "unsupported_media_type" },
    });
    expect(await upload(visitId, new TextEncoder().encode("<html>not audio</html>"), "audio/mpeg")).toMatchObject({
      status: 415,
      body: { code: "audio_unsupported" },
    });
    expect(await upload(visitId, new Uint8Array(0))).toMatchObject({ status: 400, body: { code: "audio_empty" } });
    expect(await row(visitId)).toMatchObject({ status: "draft", audio_key: null });
    expect(fs.readdirSync(`${h.dataDir}/blobs/.scratch`)).toEqual([]);
    expect((await upload(visitId, wavFile(100))).status).toBe(200);
  });

  it("a declared body over 500 MB is 413 file_too_large before anything is read", async () => {
    const visitId = await seedVisit(h);
    const res = await upload(visitId, wavFile(10), "audio/wav", { "content-length": String(500 * 1024 * 1024 + 1) });
    expect(res).toMatchObject({ status: 413, body: { code: "file_too_large" } });
  });

  it("a visit being recorded in chunks does not take a file (409 visit_closed)", async () => {
    const visitId = await seedVisit(h);
    const chunk = bytesOf(32, 1);
    await call(h, chunkRoute, {
      method: "PUT",
      path: `/api/visits/${visitId}/audio/chunks/0`,
      params: { id: visitId, seq: "0" },
      body: chunk,
      headers: { "x-chunk-sha256": sha256(chunk) },
    });
    expect(await upload(visitId, wavFile(100))).toMatchObject({ status: 409, body: { code: "visit_closed" } });
  });

  it("a file for a visit of an organisation whose trial ended is 402 trial_ended", async () => {
    const visitId = await seedVisit(h);
    await sql`update public.organizations set plan = 'trial', trial_ends_at = now() - interval '1 hour' where id = ${h.a.orgId}`.execute(
      h.db.kysely,
    );
    try {
      expect(await upload(visitId, wavFile(100))).toMatchObject({ status: 402, body: { code: "trial_ended" } });
    } finally {
      await sql`update public.organizations set plan = 'Clinic' where id = ${h.a.orgId}`.execute(h.db.kysely);
    }
  });
});
