import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import * as chunkRoute from "#app/routes/resources/api-visit-audio-chunk.ts";
import * as finishRoute from "#app/routes/resources/api-visit-audio-finish.ts";
import { startJobs, stopJobs } from "#app/services/jobs/jobs.server.ts";
import { TRANSCRIBE_LIVE_QUEUE } from "#app/services/jobs/queues.ts";
import { contiguousPrefix, handleTranscribeLive } from "#app/services/jobs/transcribe-live.server.ts";
import { handleTranscribeVisit } from "#app/services/jobs/transcribe-visit.server.ts";
import { createEngineRegistry } from "#app/services/speech/engine.ts";
import { createLiveTranscribePort, createTranscribePort } from "#app/services/speech/transcribe-file.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { hashingEngine, recordingSlices } from "#tests/speech/hashing-engine.ts";
import { withTempDir } from "#tests/speech/synth.ts";
import { call, openVisitHarness, seedVisit, sha256, type VisitHarness } from "./harness.ts";

// Issue 5 "Transcribe while recording (finished chunks are transcribed as they arrive), so that
// little remains after Stop": through the database, the stored chunks and both jobs.

// One recording for both databases: synthesising and encoding it is the slow part.
let recording: Promise<Buffer[]> | null = null;

describeEachDatabase("transcription while recording", (target) => {
  let h: VisitHarness;
  let slices: Buffer[] = [];

  beforeAll(async () => {
    h = await openVisitHarness(target);
    // Queues only: handlers are called directly so the test decides when each runs.
    await startJobs({ env: { MURMUR_DATA_DIR: h.dataDir }, db: h.db, logger: createLogger("silent") });
    recording ??= withTempDir((dir) => recordingSlices(dir));
    slices = await recording;
  }, 180_000);

  afterAll(async () => {
    await stopJobs(h.db);
    await h.close();
  });

  const put = (id: string, seq: number) =>
    call(h, chunkRoute, {
      method: "PUT",
      path: `/api/visits/${id}/audio/chunks/${seq}`,
      params: { id, seq: String(seq) },
      body: Uint8Array.from(slices[seq] ?? []),
      headers: { "x-chunk-sha256": sha256(Uint8Array.from(slices[seq] ?? [])) },
    });
  const job = (visitId: string) => ({ id: "test", data: { orgId: h.a.orgId, visitId } });
  const cacheRows = async (visitId: string) =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from public.transcription_window_cache where visit_id = ${visitId}`.execute(
          h.db.kysely,
        )
      ).rows[0]?.n,
    );

  it("each stored chunk asks for one live pass per visit (a waiting pass absorbs the next chunks)", async () => {
    const id = await seedVisit(h);
    for (const seq of [0, 1, 2]) expect((await put(id, seq)).status).toBe(200);
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from pgboss.job where name = ${TRANSCRIBE_LIVE_QUEUE} and singleton_key = ${id}`.execute(h.db.kysely);
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it("decodes settled windows while recording; after Stop only the rest, and the cache is cleared with the transcript", async () => {
    const engine = hashingEngine();
    const registry = createEngineRegistry([engine]);
    const deps = { db: h.db, store: h.store, transcribeLive: createLiveTranscribePort(registry) };
    const id = await seedVisit(h);
    // Chunk 3 arrives late: a pass sees only the chunks up to the gap.
    for (const seq of slices.keys()) if (seq !== 3) expect((await put(id, seq)).status).toBe(200);
    expect(await handleTranscribeLive(job(id), deps)).toBe("decoded");
    expect(engine.decodes).toBe(0);
    expect(await put(id, 3)).toMatchObject({ status: 200 });
    expect(await handleTranscribeLive(job(id), deps)).toBe("decoded");
    const live = engine.decodes;
    expect(live).toBeGreaterThanOrEqual(3);
    expect(await cacheRows(id)).toBe(live);
    // A second pass over the same audio decodes nothing new.
    expect(await handleTranscribeLive(job(id), deps)).toBe("decoded");
    expect(engine.decodes).toBe(live);

    const done = await call(h, finishRoute, {
      method: "POST",
      path: `/api/visits/${id}/audio/finish`,
      params: { id },
      json: { chunks: slices.length },
    });
    expect(done.body.status).toBe("uploaded");
    expect(await handleTranscribeLive(job(id), deps)).toBe("not_recording");
    const transcribe = createTranscribePort(registry);
    expect(await handleTranscribeVisit(job(id), { db: h.db, store: h.store, transcribe })).toBe("transcribed");
    expect(engine.decodes - live).toBeLessThanOrEqual(2);
    expect(await cacheRows(id)).toBe(0);

    // The same recording transcribed from scratch reads the same.
    const { rows } = await sql<{ text: string }>`
      select text from public.transcriptions where visit_id = ${id} and source = 'engine'`.execute(h.db.kysely);
    const whole = await withTempDir(async (dir) => {
      const path = `${dir}/whole.webm`;
      await (await import("node:fs/promises")).writeFile(path, Buffer.concat(slices));
      return createTranscribePort(createEngineRegistry([hashingEngine()]))(path, "en", {});
    });
    expect(rows[0]?.text).toBe(whole.text);
  }, 120_000);

  it("a pass that fails (unreadable audio) is dropped without touching the visit", async () => {
    const id = await seedVisit(h);
    const garbage = Uint8Array.from(Buffer.from("not audio at all"));
    await call(h, chunkRoute, {
      method: "PUT",
      path: `/api/visits/${id}/audio/chunks/0`,
      params: { id, seq: "0" },
      body: garbage,
      headers: { "x-chunk-sha256": sha256(garbage) },
    });
    const deps = { db: h.db, store: h.store, transcribeLive: createLiveTranscribePort(createEngineRegistry([hashingEngine()])) };
    expect(await handleTranscribeLive(job(id), deps)).toBe("failed");
    const { rows } = await sql<{ status: string }>`select status from public.visits where id = ${id}`.execute(h.db.kysely);
    expect(rows[0]?.status).toBe("recording");
    expect(await handleTranscribeLive(job(await seedVisit(h)), deps)).toBe("not_recording");
    expect(await handleTranscribeLive({ id: "x", data: { visitId: id } }, deps)).toBe("skipped");
  });

  it("members read the cache of their organisation only, and nobody but the jobs writes it", async () => {
    const id = await seedVisit(h);
    await sql`insert into public.transcription_window_cache (org_id, visit_id, cache_key, result)
      values (${h.a.orgId}, ${id}, ${"b".repeat(64)}, '{}'::jsonb)`.execute(h.db.kysely);
    const seen = (userId: string, orgId: string) =>
      withActor(h.db, { userId, orgId }, (trx) =>
        trx.selectFrom("transcription_window_cache").select("visit_id").where("visit_id", "=", id).execute(),
      );
    expect(await seen(h.a.users.clinician.id, h.a.orgId)).toHaveLength(1);
    expect(await seen(h.b.owner.id, h.b.orgId)).toHaveLength(0);
    await expect(
      withActor(h.db, { userId: h.a.users.owner.id, orgId: h.a.orgId }, (trx) =>
        trx
          .insertInto("transcription_window_cache")
          .values({ org_id: h.a.orgId, visit_id: id, cache_key: "c".repeat(64), result: "{}" })
          .execute(),
      ),
    ).rejects.toThrow(/permission denied/);
  });
});

it("the live pass takes the chunks 0..n that have all arrived", () => {
  const chunk = (seq: number) => ({ seq, sha256: "", bytes: 1, storage_key: `k${seq}` });
  expect(contiguousPrefix([chunk(2), chunk(0), chunk(1), chunk(4)]).map((c) => c.seq)).toEqual([0, 1, 2]);
  expect(contiguousPrefix([chunk(1), chunk(2)])).toEqual([]);
});
