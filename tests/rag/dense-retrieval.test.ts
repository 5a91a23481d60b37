import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { OrgRole } from "#app/db/schema.ts";
import * as embeddingsRoute from "#app/routes/resources/api-rag-embeddings.ts";
import * as searchRoute from "#app/routes/resources/api-rag-search.ts";
import { runtimeContext } from "#app/runtime/context.ts";
import { startJobs, stopJobs } from "#app/services/jobs/jobs.server.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { saveDraft } from "#app/services/notes/notes.server.ts";
import { asActor } from "#app/services/orgs/context.server.ts";
import { search } from "#app/services/rag/ask.server.ts";
import { rankDense } from "#app/services/rag/dense.server.ts";
import { createEmbeddingsClient } from "#app/services/rag/embeddings/client.server.ts";
import { embedMissing } from "#app/services/rag/embeddings/reembed.server.ts";
import { reciprocalRankFusion } from "#app/services/rag/fusion.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { conceptVector, createEmbeddingsMock } from "#tests/mocks/openai-embeddings.ts";
import { generatedNote, patientOf, transcribedVisit } from "#tests/notes/notes-harness.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, type VisitHarness } from "#tests/visits/harness.ts";

// Optional dense retrieval (issue 12, ADR 0020, 0026): passages embedded by a resumable job,
// ranked by cosine under the same organisation and role filters as full text, fused by reciprocal
// rank fusion; without EMBEDDINGS_* or when the server fails, full text answers alone. msw plays
// the embeddings server (tests/mocks/openai-embeddings.ts).

const BASE = "http://embeddings.test/v1";
const mock = createEmbeddingsMock(BASE);
const client = createEmbeddingsClient({
  EMBEDDINGS_BASE_URL: BASE,
  EMBEDDINGS_MODEL: "concepts-64",
  EMBEDDINGS_TIMEOUT_MS: 5000,
});

it("reciprocal rank fusion: a passage high in both lists wins, ties keep the first list's order", () => {
  const fused = reciprocalRankFusion(
    [
      ["a", "b", "c"],
      ["c", "d", "a"],
    ],
    (x) => x,
  );
  expect(fused.map((f) => f.item)).toEqual(["a", "c", "b", "d"]);
  expect(fused[0]?.ranks).toEqual([1, 3]);
  expect(fused[0]?.score).toBeCloseTo(1 / 61 + 1 / 63, 10);
});

describeEachDatabase("Ask Murmur: dense retrieval", (target) => {
  let h: VisitHarness;
  let visitId: string;
  let patientId: string;
  const as = (role: OrgRole) => ({ db: h.db, actor: { userId: h.a.users[role].id }, orgId: h.a.orgId });
  const ask = (role: OrgRole, query: string, withDense = true) =>
    search({ ...as(role), query, patientId, language: "en", embeddings: withDense ? client : null, limit: 10 });
  const texts = (r: Awaited<ReturnType<typeof ask>>) => r.citations.map((c) => c.snippet);

  beforeAll(async () => {
    mock.server.listen({ onUnhandledFrame: "bypass" });
    h = await openVisitHarness(target);
    visitId = await transcribedVisit(h, {
      text: "She describes a gnawing ache in the epigastrium after meals. Her knee is fine. She walks every day.",
    });
    patientId = await patientOf(h, visitId);
    const { noteId } = await generatedNote(h, createExtractiveEngine(), { visitId });
    await saveDraft({
      ...as("clinician"),
      noteId,
      sections: [{ key: "assessment", text: "Epigastric discomfort, likely gastritis." }],
    });
  }, 240_000);
  afterAll(async () => {
    mock.server.close();
    await h.close();
  });

  it("full text alone cannot find 'belly pain' in 'gnawing ache in the epigastrium'", async () => {
    expect(texts(await ask("clinician", "Does she have belly pain?", false)).some((t) => t.includes("epigastrium"))).toBe(false);
    // Configured but nothing embedded yet: the answer is the full-text one, not an error.
    expect(texts(await ask("clinician", "Does she have belly pain?")).some((t) => t.includes("epigastrium"))).toBe(false);
  });

  it("embeds in resumable batches with progress, then fuses dense hits in", async () => {
    if (!client) throw new Error("client");
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from public.record_chunks where org_id = ${h.a.orgId}`.execute(h.db.kysely);
    const total = rows[0]?.n ?? 0;
    expect(total).toBeGreaterThan(3);
    const first = await embedMissing({ db: h.db, client, orgId: h.a.orgId, batchSize: 2, maxBatches: 1 });
    expect(first).toEqual({ done: 2, total, finished: false });
    const status = await call(h, embeddingsRoute, { method: "GET", path: "/api/rag/embeddings", as: "owner" });
    // The route's runtime has no EMBEDDINGS_*: configured false, but the counts are the database's.
    expect(status.body).toMatchObject({ configured: false, total });
    // The job resumes from what is missing: nothing is embedded twice.
    const calls = mock.calls.length;
    const rest = await embedMissing({ db: h.db, client, orgId: h.a.orgId, batchSize: 2 });
    expect(rest).toEqual({ done: total, total, finished: true });
    const embeddedInputs = mock.calls.slice(calls).reduce((n, c) => n + c.body.input.length, 0);
    expect(embeddedInputs).toBe(total - 2);
    const run = await h.db.kysely.selectFrom("rag_embedding_runs").selectAll().where("org_id", "=", h.a.orgId).executeTakeFirst();
    expect(run).toMatchObject({ state: "done", done: total, total, model: "concepts-64" });

    const hits = await ask("clinician", "Does she have belly pain?");
    expect(texts(hits).some((t) => t.includes("epigastrium"))).toBe(true);
    expect(hits.citations.some((c) => c.source.table === "doctor_notes" && c.snippet.includes("Epigastric"))).toBe(true);
  });

  it("pgvector with its HNSW index where the database has it (PGlite), real[] elsewhere; same order as the exact cosine", async () => {
    const { rows: ext } = await sql<{ available: boolean; vec: boolean }>`
      select exists (select 1 from pg_catalog.pg_available_extensions where name = 'vector') as available,
             exists (select 1 from pg_catalog.pg_attribute where attrelid = 'public.record_embeddings'::regclass
                     and attname = 'vec' and not attisdropped) as vec`.execute(h.db.kysely);
    const pgvector = ext[0]?.available === true;
    // PGlite opens with @electric-sql/pglite-pgvector (app/db/pglite.server.ts): the vector path
    // is the one proven there; this machine's server PostgreSQL has no pgvector: the fallback.
    if (target.name === "pglite") expect(pgvector).toBe(true);
    expect(ext[0]?.vec).toBe(pgvector);
    const status = await call(h, embeddingsRoute, { method: "GET", path: "/api/rag/embeddings", as: "owner" });
    expect(status.body.pgvector).toBe(pgvector);
    if (pgvector) {
      const { rows } = await sql<{ missing: number; indexed: boolean }>`
        select (select count(*) from public.record_embeddings where org_id = ${h.a.orgId} and vec is null)::int as missing,
               exists (select 1 from pg_catalog.pg_indexes where indexname = 'record_embeddings_vec_64_idx') as indexed`.execute(
        h.db.kysely,
      );
      expect(rows[0]).toEqual({ missing: 0, indexed: true });
      // The dense ranking's ORDER BY is the index's expression: the planner can serve it from HNSW.
      const q = JSON.stringify(conceptVector("belly pain", 64));
      const plan = await h.db.pool.connect();
      try {
        await plan.query("begin");
        await plan.query("set local enable_seqscan = off");
        const { rows: lines } = await plan.query<{ "QUERY PLAN": string }>(
          `explain select chunk_id from public.record_embeddings e where e.dims = 64
           order by e.vec::public.vector(64) operator(public.<=>) $1::public.vector(64) limit 5`,
          [q],
        );
        expect(lines.map((l) => l["QUERY PLAN"]).join("\n")).toContain("record_embeddings_vec_64_idx");
      } finally {
        await plan.query("rollback");
        plan.release();
      }
    }
    // Whatever the path, the order is the exact cosine's, computed here from the mock's vectors.
    const question = conceptVector("Does she have belly pain?", 64);
    const ranked = await asActor(as("clinician"), h.a.orgId, (trx) =>
      rankDense(trx, {
        orgId: h.a.orgId,
        types: ["transcription", "doctor_note", "case"],
        model: "concepts-64",
        vector: question,
        patientId,
        filters: {},
        limit: 500,
      }),
    );
    const cosine = (text: string) => conceptVector(text, 64).reduce((s, x, i) => s + x * (question[i] ?? 0), 0);
    expect(ranked.length).toBeGreaterThan(3);
    for (const passage of ranked) expect(passage.score).toBeCloseTo(cosine(passage.text), 5);
    const scores = ranked.map((p) => p.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(ranked[0]?.text).toContain("epigastri");
  });

  it("the role filter applies before dense ranking: staff never get the note sentence", async () => {
    const staff = await ask("staff", "Does she have belly pain?");
    expect(texts(staff).some((t) => t.includes("epigastrium"))).toBe(true);
    expect(staff.citations.every((c) => c.source.table !== "doctor_notes")).toBe(true);
    // Another organisation's member asking B sees none of A's embedded passages.
    const other = await search({
      db: h.db,
      actor: { userId: h.b.owner.id },
      orgId: h.b.orgId,
      query: "belly pain",
      language: "en",
      embeddings: client,
    });
    expect(other.citations).toEqual([]);
  });

  it("debug shows both ranks; a failing embeddings server falls back to full text", async () => {
    const env = h.context().get(runtimeContext).env as Record<string, unknown>;
    Object.assign(env, { EMBEDDINGS_BASE_URL: BASE, EMBEDDINGS_MODEL: "concepts-64", EMBEDDINGS_TIMEOUT_MS: 5000 });
    try {
      const res = await call(h, searchRoute, {
        method: "POST",
        path: "/api/rag/search",
        json: { query: "belly pain after meals", patientId, debug: true },
        as: "owner",
      });
      expect(res.status).toBe(200);
      const top = res.body.citations[0];
      expect(top.features).toMatchObject({
        rrf: expect.any(Number),
        text_rank: expect.any(Number),
        dense_rank: expect.any(Number),
      });
      mock.fail = true;
      const fallback = await call(h, searchRoute, {
        method: "POST",
        path: "/api/rag/search",
        json: { query: "gnawing ache", patientId },
        as: "clinician",
      });
      expect(fallback.status).toBe(200);
      expect(fallback.body.citations[0].snippet).toContain("gnawing ache");
      expect(fallback.body.citations[0].features).toBeUndefined();
    } finally {
      mock.fail = false;
      for (const key of ["EMBEDDINGS_BASE_URL", "EMBEDDINGS_MODEL"]) delete env[key];
    }
  });

  it("a re-indexed passage loses its embedding and is embedded again; owners only see progress", async () => {
    if (!client) throw new Error("client");
    await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text)
      values (${h.a.orgId}, ${visitId}, 2, 'import', 'import', 'en', 'Her tummy hurts at night. Knee fine.')`.execute(
      h.db.kysely,
    );
    const owner = await call(h, embeddingsRoute, { method: "GET", path: "/api/rag/embeddings", as: "owner" });
    expect(owner.body.done).toBeLessThan(owner.body.total);
    expect((await call(h, embeddingsRoute, { method: "GET", path: "/api/rag/embeddings", as: "clinician" })).status).toBe(403);
    // B's owner reads B's progress only: none of A's passages are counted.
    expect((await call(h, embeddingsRoute, { method: "GET", path: "/api/rag/embeddings", as: "outsider" })).body).toMatchObject({
      total: 0,
      done: 0,
    });
    const intruder = await call(h, embeddingsRoute, {
      method: "GET",
      path: "/api/rag/embeddings",
      as: "outsider",
      orgId: h.a.orgId,
    });
    expect(intruder.status).toBe(404);
    const refused = await call(h, embeddingsRoute, { method: "POST", path: "/api/rag/embeddings", as: "owner" });
    expect(refused).toMatchObject({ status: 409, body: { code: "embeddings_not_configured" } });
    await embedMissing({ db: h.db, client, orgId: h.a.orgId });
    expect(texts(await ask("clinician", "stomach pain")).some((t) => t.includes("tummy hurts"))).toBe(true);
  });

  it("the rag-embed job, started by an owner's POST, runs through pg-boss to done", async () => {
    const env = h.context().get(runtimeContext).env as Record<string, unknown>;
    Object.assign(env, { EMBEDDINGS_BASE_URL: BASE, EMBEDDINGS_MODEL: "concepts-64-b", EMBEDDINGS_TIMEOUT_MS: 5000 });
    const other = createEmbeddingsClient({
      EMBEDDINGS_BASE_URL: BASE,
      EMBEDDINGS_MODEL: "concepts-64-b",
      EMBEDDINGS_TIMEOUT_MS: 5000,
    });
    await startJobs(
      { env: { MURMUR_DATA_DIR: h.dataDir }, db: h.db, logger: createLogger("silent") },
      { embeddings: other, pollingIntervalSeconds: 0.5, sweepIntervalMs: 0 },
    );
    try {
      // A new model: every passage is missing again.
      const started = await call(h, embeddingsRoute, { method: "POST", path: "/api/rag/embeddings", as: "owner" });
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({ configured: true, model: "concepts-64-b", state: "queued", done: 0 });
      let status = started.body;
      for (let i = 0; i < 120 && status.state !== "done"; i++) {
        await new Promise((r) => setTimeout(r, 500));
        status = (await call(h, embeddingsRoute, { method: "GET", path: "/api/rag/embeddings", as: "owner" })).body;
      }
      expect(status).toMatchObject({ state: "done", done: status.total, error: null });
      expect(status.total).toBeGreaterThan(0);
    } finally {
      await stopJobs(h.db);
      for (const key of ["EMBEDDINGS_BASE_URL", "EMBEDDINGS_MODEL"]) delete env[key];
    }
  }, 120_000);
});
