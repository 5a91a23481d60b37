import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";

// Migration 0030 (ADR 0027): pgvector where the database has it, real[] elsewhere, and a server
// that gets pgvector after migrating switches over at the next re-embedding run, which calls
// app.rag_ensure_vector_index. PGlite opens with @electric-sql/pglite-pgvector; this machine's
// PostgreSQL has no pgvector, so it proves the fallback.
describeEachDatabase("pgvector for dense retrieval (0030)", (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db.close();
  });

  const state = async () =>
    (
      await sql<{ available: boolean; created: boolean; vec: boolean; index64: boolean }>`
        select exists (select 1 from pg_catalog.pg_available_extensions where name = 'vector') as available,
               exists (select 1 from pg_catalog.pg_extension where extname = 'vector') as created,
               exists (select 1 from pg_catalog.pg_attribute where attrelid = 'public.record_embeddings'::regclass
                       and attname = 'vec' and not attisdropped) as vec,
               exists (select 1 from pg_catalog.pg_indexes where indexname = 'record_embeddings_vec_64_idx') as index64`.execute(
        db.kysely,
      )
    ).rows[0];
  const ensure = async (dims: number) =>
    (await sql<{ ok: boolean }>`select app.rag_ensure_vector_index(${dims}::int) as ok`.execute(db.kysely)).rows[0]?.ok;

  it("the migrations take the pgvector branch exactly where the extension is available", async () => {
    const before = await state();
    if (target.name === "pglite") expect(before?.available).toBe(true);
    expect(before?.created).toBe(before?.available);
    expect(before?.vec).toBe(before?.available);
    // No index before a model has been embedded at that size; HNSW stops at 2,000 dimensions.
    expect(await ensure(4096)).toBe(false);
    expect(await ensure(64)).toBe(before?.available);
    expect(await ensure(64)).toBe(before?.available);
    expect((await state())?.index64).toBe(before?.available);
  });

  it("pgvector installed after migrating: the next ensure adds the column, its trigger and the index", async () => {
    if (!(await state())?.available) return;
    if (target.name !== "pglite") return; // never drop an extension on a shared server
    await sql`drop extension vector cascade`.execute(db.kysely);
    expect(await state()).toMatchObject({ created: false, vec: false, index64: false });
    expect(await ensure(64)).toBe(true);
    expect(await state()).toMatchObject({ created: true, vec: true, index64: true });
    const { rows } = await sql<{ trigger: boolean }>`
      select exists (select 1 from pg_catalog.pg_trigger where tgname = 'record_embeddings_vec') as trigger`.execute(db.kysely);
    expect(rows[0]?.trigger).toBe(true);
  });
});
