import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { enqueueTranscribeVisit } from "#app/services/jobs/enqueue.server.ts";
import { startJobs, stopJobs } from "#app/services/jobs/jobs.server.ts";
import { runningBoss } from "#app/services/jobs/registry.server.ts";
import { enqueueGenerateNote } from "#app/services/notes/jobs/enqueue.server.ts";
import { enqueueRagEmbed } from "#app/services/rag/embeddings/jobs.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, type VisitHarness } from "./harness.ts";
import { uploadedVisit } from "./pipeline-helpers.ts";

// Issue 25 (ADR 0038): a web-only process (MURMUR_ROLE=web) starts pg-boss with `workers: false`.
// Every queue a request may send to exists, sends succeed, and this process claims nothing — not
// even with an engine at hand — nor sweeps visits left `uploaded` (the workers do).

describeEachDatabase("startJobs without workers (web role)", (target) => {
  let h: VisitHarness;
  let transcribed = 0;

  beforeAll(async () => {
    h = await openVisitHarness(target);
    await startJobs(
      { env: { MURMUR_DATA_DIR: h.dataDir }, db: h.db, logger: createLogger("silent") },
      {
        workers: false,
        pollingIntervalSeconds: 0.5,
        sweepMinAgeMs: 0,
        transcribe: async () => {
          transcribed += 1;
          return { text: "never", segments: [], engine: "fake" };
        },
      },
    );
  });
  afterAll(async () => {
    await stopJobs(h.db);
    await h.close();
  });

  it("queues transcription, note and embedding jobs and runs none of them", async () => {
    const visitId = await uploadedVisit(h);
    // The upload queued the visit's transcription already: a second send is the singleton's no-op.
    const queued = await enqueueTranscribeVisit(h.db, { orgId: h.a.orgId, visitId });
    expect(queued).toEqual({ queued: true, jobId: null });
    const noteId = randomUUID();
    const note = await enqueueGenerateNote(h.db, { orgId: h.a.orgId, noteId });
    expect(note.jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await enqueueRagEmbed(h.db, { orgId: h.a.orgId })).queued).toBe(true);

    // Several polling intervals go by: a worker would have claimed the jobs by now.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    // This test's jobs only: on PostgreSQL the database is shared with the worker's other files.
    const { rows } = await sql<{ name: string; state: string }>`
      select name, state from pgboss.job
       where (name = 'transcribe-visit' and data->>'visitId' = ${visitId})
          or (name = 'generate-note' and data->>'noteId' = ${noteId})
          or (name = 'rag-embed' and data->>'orgId' = ${h.a.orgId})`.execute(h.db.kysely);
    expect(rows.map((r) => r.state)).toEqual(rows.map(() => "created"));
    expect(rows.map((r) => r.name).sort()).toEqual(["generate-note", "rag-embed", "transcribe-visit"]);
    expect(transcribed).toBe(0);
    const visit = await sql<{ status: string }>`select status from public.visits where id = ${visitId}`.execute(h.db.kysely);
    expect(visit.rows[0]?.status).toBe("uploaded");
  });

  it("stops cleanly and unregisters its queue handle", async () => {
    expect(runningBoss(h.db)).toBeDefined();
    await stopJobs(h.db);
    expect(runningBoss(h.db)).toBeUndefined();
  });
});
