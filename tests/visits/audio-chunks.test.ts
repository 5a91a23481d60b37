import fs from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import * as chunkRoute from "#app/routes/resources/api-visit-audio-chunk.ts";
import * as finishRoute from "#app/routes/resources/api-visit-audio-finish.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { bytesOf, call, concat, openVisitHarness, seedVisit, sha256, type VisitHarness, webmChunks } from "./harness.ts";

// Issue 5 "Proof" (fault tests): duplicate and out-of-order chunks give identical assembled
// audio; a chunk whose SHA-256 does not match is refused and the resend succeeds; an acknowledged
// chunk is never replaced; a manifest with gaps names them; finishing twice answers the same.
describeEachDatabase("visit audio chunks", (target) => {
  let h: VisitHarness;

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });

  afterAll(async () => {
    await h.close();
  });

  const put = (
    visitId: string,
    seq: number | string,
    data: Uint8Array,
    claimed = sha256(data),
    as: "owner" | "staff" = "owner",
  ) =>
    call(h, chunkRoute, {
      method: "PUT",
      path: `/api/visits/${visitId}/audio/chunks/${seq}`,
      params: { id: visitId, seq: String(seq) },
      body: data,
      headers: { "x-chunk-sha256": claimed, "content-type": "application/octet-stream" },
      as,
    });
  const finish = (visitId: string, manifest: unknown) =>
    call(h, finishRoute, {
      method: "POST",
      path: `/api/visits/${visitId}/audio/finish`,
      params: { id: visitId },
      json: manifest,
    });
  const visitRow = async (visitId: string) =>
    (
      await sql<{ status: string; audio_key: string | null; audio_sha256: string | null }>`
      select status, audio_key, audio_sha256 from public.visits where id = ${visitId}`.execute(h.db.kysely)
    ).rows[0];
  const storedAudio = async (visitId: string) => {
    const row = await visitRow(visitId);
    const file = h.store.localPath(row?.audio_key ?? "");
    return file ? fs.readFileSync(file) : null;
  };

  it("in-order chunks are acknowledged, assembled byte for byte and the visit is uploaded", async () => {
    const visitId = await seedVisit(h);
    const chunks = webmChunks(5);
    for (const [seq, data] of chunks.entries()) {
      const res = await put(visitId, seq, data);
      expect(res).toEqual({
        status: 200,
        body: { seq, acknowledged: true, duplicate: false, bytes: data.byteLength, sha256: sha256(data) },
      });
    }
    expect((await visitRow(visitId))?.status).toBe("recording");
    const whole = concat(chunks);
    const done = await finish(visitId, {
      chunks: 5,
      bytes: whole.byteLength,
      duration_ms: 25_000,
      mime_type: "audio/webm;codecs=opus",
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      id: visitId,
      status: "uploaded",
      audio: { source: "chunks", chunk_count: 5, bytes: whole.byteLength, duration_ms: 25_000, sha256: sha256(whole) },
    });
    expect(sha256(new Uint8Array((await storedAudio(visitId)) ?? []))).toBe(sha256(whole));
    const got = await call(h, visitRoute, { method: "GET", path: `/api/visits/${visitId}`, params: { id: visitId } });
    expect(got.body).toMatchObject({
      status: "uploaded",
      audio: { chunk_count: 5, bytes: whole.byteLength },
      transcription: null,
    });
  });

  it("duplicate and out-of-order chunks assemble to exactly the audio of an in-order upload", async () => {
    const chunks = webmChunks(6, 3000);
    const inOrder = await seedVisit(h);
    for (const [seq, data] of chunks.entries()) expect((await put(inOrder, seq, data)).status).toBe(200);
    expect((await finish(inOrder, { chunks: 6 })).status).toBe(200);

    const shuffled = await seedVisit(h);
    const order = [3, 0, 5, 3, 1, 0, 4, 2, 5, 2];
    const answers = [];
    for (const seq of order) answers.push((await put(shuffled, seq, chunks[seq] as Uint8Array)).body);
    expect(answers.map((a) => [a.seq, a.duplicate])).toEqual([
      [3, false],
      [0, false],
      [5, false],
      [3, true],
      [1, false],
      [0, true],
      [4, false],
      [2, false],
      [5, true],
      [2, true],
    ]);
    const done = await finish(shuffled, { chunks: 6, chunk_sha256: chunks.map((c) => sha256(c)) });
    expect(done.status).toBe(200);
    const a = await storedAudio(inOrder);
    const b = await storedAudio(shuffled);
    expect(a?.byteLength).toBe(concat(chunks).byteLength);
    expect(sha256(new Uint8Array(b ?? []))).toBe(sha256(new Uint8Array(a ?? [])));
    expect(done.body.audio.sha256).toBe(sha256(concat(chunks)));
  });

  it("a chunk whose SHA-256 does not match is 422 and not stored; the resend succeeds", async () => {
    const visitId = await seedVisit(h);
    const data = bytesOf(2048, 7);
    const damaged = Uint8Array.from(data);
    damaged[100] = (damaged[100] ?? 0) ^ 0xff;
    const bad = await put(visitId, 0, damaged, sha256(data));
    expect(bad).toMatchObject({ status: 422, body: { code: "chunk_checksum_mismatch" } });
    const rows = await sql`select 1 from public.visit_audio_chunks where visit_id = ${visitId}`.execute(h.db.kysely);
    expect(rows.rows).toHaveLength(0);
    expect((await visitRow(visitId))?.status).toBe("draft");
    expect(await put(visitId, 0, data)).toMatchObject({ status: 200, body: { duplicate: false, sha256: sha256(data) } });
  });

  it("different bytes for an acknowledged chunk number are 409 chunk_conflict and the first bytes stay", async () => {
    const visitId = await seedVisit(h);
    const first = bytesOf(1000, 1);
    const other = bytesOf(1000, 2);
    expect((await put(visitId, 0, first)).status).toBe(200);
    expect(await put(visitId, 0, other)).toMatchObject({ status: 409, body: { code: "chunk_conflict" } });
    expect((await finish(visitId, { chunks: 1 })).body.audio.sha256).toBe(sha256(first));
  });

  it("finishing with chunks missing is 409 chunks_missing with their numbers; nothing is assembled", async () => {
    const visitId = await seedVisit(h);
    const chunks = webmChunks(6, 500);
    for (const seq of [0, 2, 3, 5]) await put(visitId, seq, chunks[seq] as Uint8Array);
    const res = await finish(visitId, { chunks: 7 });
    expect(res).toEqual({
      status: 409,
      body: { code: "chunks_missing", message: expect.any(String), missing: [1, 4, 6] },
    });
    expect(await visitRow(visitId)).toMatchObject({ status: "recording", audio_key: null });
    for (const seq of [1, 4]) await put(visitId, seq, chunks[seq] as Uint8Array);
    expect((await finish(visitId, { chunks: 6 })).status).toBe(200);
  });

  it("a manifest that disagrees with the chunks (extra chunks, bytes, hashes) is 409 audio_manifest_mismatch", async () => {
    const visitId = await seedVisit(h);
    const chunks = webmChunks(3, 100);
    for (const [seq, data] of chunks.entries()) await put(visitId, seq, data);
    expect((await finish(visitId, { chunks: 2 })).body).toMatchObject({ code: "audio_manifest_mismatch", extra: [2] });
    expect((await finish(visitId, { chunks: 3, bytes: 301 })).body).toMatchObject({
      code: "audio_manifest_mismatch",
      bytes_expected: 301,
      bytes_received: 300,
    });
    const hashes = chunks.map((c) => sha256(c));
    hashes[1] = sha256("something else");
    expect((await finish(visitId, { chunks: 3, chunk_sha256: hashes })).body).toMatchObject({ mismatched: [1] });
    expect((await visitRow(visitId))?.status).toBe("recording");
  });

  it("finishing twice answers the same; a closed visit refuses new chunks but acknowledges resent ones", async () => {
    const visitId = await seedVisit(h);
    const chunks = webmChunks(2, 800);
    for (const [seq, data] of chunks.entries()) await put(visitId, seq, data);
    const first = await finish(visitId, { chunks: 2 });
    const second = await finish(visitId, { chunks: 2 });
    expect(second).toEqual(first);
    const uploads = await sql<{ n: number }>`
      select count(*)::int as n from public.audit_log where entity_id = ${visitId} and action = 'visit.audio_uploaded'`.execute(
      h.db.kysely,
    );
    expect(uploads.rows[0]?.n).toBe(1);
    expect(await put(visitId, 1, chunks[1] as Uint8Array)).toMatchObject({ status: 200, body: { duplicate: true } });
    expect(await put(visitId, 2, bytesOf(10, 3))).toMatchObject({ status: 409, body: { code: "visit_closed" } });
    expect(await finish(visitId, { chunks: 3 })).toMatchObject({ status: 409, body: { code: "visit_closed" } });
  });

  it("bad chunk numbers and checksum headers are 400; malformed or unknown visit ids are 404", async () => {
    const visitId = await seedVisit(h);
    const data = bytesOf(10, 1);
    for (const seq of ["-1", "100000", "1.5", "abc", "00000001"]) {
      expect((await put(visitId, seq, data)).body.code).toBe("invalid_chunk_seq");
    }
    expect((await put(visitId, 0, data, "xyz")).body.code).toBe("chunk_checksum_required");
    expect((await put("not-a-uuid", 0, data)).status).toBe(404);
    expect((await put("00000000-0000-4000-8000-000000000000", 0, data)).body.code).toBe("visit_not_found");
    expect((await finish("not-a-uuid", { chunks: 1 })).body.code).toBe("visit_not_found");
  });

  it("finish bodies: bad JSON is 400 bad_json, a wrong shape 400 validation_failed", async () => {
    const visitId = await seedVisit(h);
    expect((await finish(visitId, "{chunks:")).body.code).toBe("bad_json");
    expect((await finish(visitId, { chunks: 0 })).body.code).toBe("validation_failed");
    expect((await finish(visitId, { chunks: 1, extra: true })).body.code).toBe("validation_failed");
  });

  describe("body limits", () => {
    it("a chunk over 10 MB is 413 chunk_too_large, by its Content-Length or while streaming without one", async () => {
      const visitId = await seedVisit(h);
      const big = new Uint8Array(10 * 1024 * 1024 + 1);
      const declared = await call(h, chunkRoute, {
        method: "PUT",
        path: `/api/visits/${visitId}/audio/chunks/0`,
        params: { id: visitId, seq: "0" },
        body: new Uint8Array(1),
        headers: { "x-chunk-sha256": sha256(big), "content-length": String(big.byteLength) },
      });
      expect(declared).toMatchObject({ status: 413, body: { code: "chunk_too_large" } });
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= big.byteLength) return controller.close();
          const piece = big.subarray(sent, sent + 1024 * 1024);
          sent += piece.byteLength;
          controller.enqueue(piece);
        },
      });
      const streamed = await call(h, chunkRoute, {
        method: "PUT",
        path: `/api/visits/${visitId}/audio/chunks/0`,
        params: { id: visitId, seq: "0" },
        body: stream,
        headers: { "x-chunk-sha256": sha256(big) },
      });
      expect(streamed).toMatchObject({ status: 413, body: { code: "chunk_too_large" } });
      expect(fs.readdirSync(`${h.dataDir}/blobs/.scratch`)).toEqual([]);
      expect((await visitRow(visitId))?.status).toBe("draft");
    });

    it("a manifest over 8 MB is 413 payload_too_large", async () => {
      const visitId = await seedVisit(h);
      const res = await finish(visitId, `{"chunks":1,"mime_type":"${"x".repeat(8 * 1024 * 1024)}"}`);
      expect(res).toMatchObject({ status: 413, body: { code: "payload_too_large" } });
    });
  });

  it("the first chunk of an organisation whose trial ended is 402 trial_ended; a paid plan records", async () => {
    const visitId = await seedVisit(h);
    await sql`update public.organizations set plan = 'trial', trial_ends_at = now() - interval '1 day' where id = ${h.a.orgId}`.execute(
      h.db.kysely,
    );
    try {
      const res = await put(visitId, 0, bytesOf(10, 1));
      expect(res).toMatchObject({ status: 402, body: { code: "trial_ended" } });
      expect((await visitRow(visitId))?.status).toBe("draft");
      await sql`update public.organizations set plan = 'solo' where id = ${h.a.orgId}`.execute(h.db.kysely);
      expect((await put(visitId, 0, bytesOf(10, 1))).status).toBe(200);
    } finally {
      await sql`update public.organizations set plan = 'Clinic', trial_ends_at = now() + interval '14 days' where id = ${h.a.orgId}`.execute(
        h.db.kysely,
      );
    }
  });

  it("the first chunk is audited as the start of the recording, once", async () => {
    const visitId = await seedVisit(h);
    for (const seq of [1, 0, 2]) await put(visitId, seq, bytesOf(10, seq), undefined, "staff");
    const { rows } = await sql<{ actor_id: string; details: { first_seq: number } }>`
      select actor_id, details from public.audit_log where entity_id = ${visitId} and action = 'visit.recording_started'`.execute(
      h.db.kysely,
    );
    expect(rows).toEqual([{ actor_id: h.a.users.staff.id, details: { first_seq: 1 } }]);
  });
});
