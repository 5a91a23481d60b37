// The dense leg's two paths side by side (ADR 0027): exact cosine over real[] (app.rag_cosine, the
// fallback without pgvector) against pgvector's HNSW partial expression index, on a standalone
// PGlite table of random vectors. Random vectors are HNSW's hard case for recall.
//   node bench/rag/dense-index.ts            (N=10000 D=128 EF=100 by default)
//   N=20000 D=256 EF=40 node bench/rag/dense-index.ts
import { createPglite } from "#app/db/pglite.server.ts";

const N = Number(process.env.N ?? 10_000);
const D = Number(process.env.D ?? 128);
const EF = Number(process.env.EF ?? 100);
const Q = 20;
const K = 24;

const db = await createPglite();
await db.exec(`create extension vector;
create function rag_cosine(a real[], b real[]) returns float8 language sql immutable parallel safe as $$
  select sum(x::float8 * y::float8) / nullif(sqrt(sum(x::float8 * x::float8)) * sqrt(sum(y::float8 * y::float8)), 0)
    from unnest(a, b) as t(x, y) $$;
create table e (id serial primary key, dims int not null, embedding real[] not null, vec vector);`);
let seed = 42;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff - 0.5;
};
const randomVector = () => Array.from({ length: D }, rnd);

let t = performance.now();
for (let i = 0; i < N; i += 500) {
  const rows = Array.from({ length: Math.min(500, N - i) }, randomVector);
  await db.query(
    `insert into e (dims, embedding, vec)
     select $1, array(select jsonb_array_elements_text(x)::real), (x::text)::vector from jsonb_array_elements($2::jsonb) x`,
    [D, JSON.stringify(rows)],
  );
}
const loadMs = performance.now() - t;
t = performance.now();
await db.exec(`create index on e using hnsw ((vec::vector(${D})) vector_cosine_ops) where dims = ${D}`);
const buildMs = performance.now() - t;
await db.exec(`set hnsw.ef_search = ${EF}; set hnsw.iterative_scan = relaxed_order`);

const questions = Array.from({ length: Q }, randomVector);
async function time(text: string, arg: (q: number[]) => unknown) {
  const ms: number[] = [];
  const ids: number[][] = [];
  for (const q of questions) {
    const start = performance.now();
    const { rows } = await db.query<{ id: number }>(text, [arg(q)]);
    ms.push(performance.now() - start);
    ids.push(rows.map((r) => r.id));
  }
  ms.sort((a, b) => a - b);
  const at = (p: number) => Math.round((ms[Math.min(ms.length - 1, Math.floor(ms.length * p))] ?? 0) * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), ids };
}
const exact = await time(
  `select id from e where dims = ${D} order by 1 - rag_cosine(embedding, $1::real[]) limit ${K}`,
  (q) => q,
);
const hnsw = await time(`select id from e where dims = ${D} order by vec::vector(${D}) <=> $1::vector(${D}) limit ${K}`, (q) =>
  JSON.stringify(q),
);
let recall = 0;
for (let i = 0; i < Q; i++) recall += (hnsw.ids[i] ?? []).filter((id) => exact.ids[i]?.includes(id)).length / K;
await db.close();
console.log(
  JSON.stringify({
    N,
    D,
    EF,
    loadMs: Math.round(loadMs),
    hnswBuildMs: Math.round(buildMs),
    exact: { p50: exact.p50, p95: exact.p95 },
    hnsw: { p50: hnsw.p50, p95: hnsw.p95 },
    [`recallAt${K}`]: Math.round((recall / Q) * 1000) / 1000,
  }),
);
