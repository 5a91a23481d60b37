// Ask Murmur on ACI-Bench (issue 12 "Proof"): the train and valid encounters imported as visits of
// ten patients (their dialogues as imported transcripts, indexed by the 0017 triggers), questions
// generated from every "<drug> <dose> milligrams" the dialogues mention — asked with the drug's
// name as said, or with its brand/generic counterpart when the lexicon has one — then the scale
// run: the organisation grown to 100,000 indexed passages beside 9 other organisations.
// Prints hit@1 scoped to the patient, hit@6 organisation-wide, answer accuracy (the answer holds
// the dose), ask latency p50/p95 on both index sizes, and index build throughput.
// `npm run bench:rag:dose` (PGlite) or `DATABASE_URL=postgres://… npm run bench:rag:dose` (an empty database).
// Options: --chunks N (default 100000), --others N (default 9).
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { type Database, openDatabase } from "#app/db/database.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { ask, search } from "#app/services/rag/ask.server.ts";
import { createExtractiveAnswerer } from "#app/services/rag/engines/extractive.ts";
import { HAND_WRITTEN_GROUPS } from "#app/services/rag/lexicon/hand-written.ts";
import { type AciEncounter, loadAciSplit } from "../notes/aci-data.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TARGET_CHUNKS = arg("--chunks", 100_000);
const OTHER_ORGS = arg("--others", 9);
const PATIENTS = 10;

interface Question {
  encounter: string;
  patientId: string;
  visitId: string;
  query: string;
  dose: string;
  /** Asked by the drug's other name (brand ↔ generic), which the dialogue does not say. */
  byCounterpart: boolean;
}

const engine = createExtractiveAnswerer();
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function user(db: Database): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into auth.users (email, email_confirmed_at) values (${`bench-${crypto.randomUUID()}@example.test`}, now())
    returning id`.execute(db.kysely);
  return rows[0]?.id ?? "";
}

async function org(db: Database, userId: string): Promise<string> {
  const slug = `bench-${crypto.randomUUID().slice(0, 8)}`;
  const { rows } = await sql<{ id: string }>`
    insert into public.organizations (name, slug, kind, created_by, plan) values (${slug}, ${slug}, 'practice', ${userId}, 'Clinic')
    returning id`.execute(db.kysely);
  const id = rows[0]?.id ?? "";
  await sql`insert into public.org_members (org_id, user_id, role) values (${id}, ${userId}, 'clinician')`.execute(db.kysely);
  return id;
}

async function patient(db: Database, orgId: string, name: string): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into public.patients (org_id, display_name) values (${orgId}, ${name}) returning id`.execute(db.kysely);
  return rows[0]?.id ?? "";
}

/** A visit with the dialogue as its imported transcript: the trigger indexes it in the same statement. */
async function visit(db: Database, orgId: string, patientId: string, title: string, day: string, text: string): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    with v as (
      insert into public.visits (org_id, patient_id, title, language, consent_at, status, visit_date)
      values (${orgId}, ${patientId}, ${title}, 'en', now(), 'transcribed', ${day}::date) returning id, org_id)
    select id from v`.execute(db.kysely);
  const id = rows[0]?.id ?? "";
  await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text)
    values (${orgId}, ${id}, 1, 'import', 'import', 'en', ${text})`.execute(db.kysely);
  return id;
}

const counterpart = new Map<string, string>();
for (const group of HAND_WRITTEN_GROUPS.slice(0, 45)) {
  const [a, b] = group;
  if (a && b && !a.includes(" ") && !b.includes(" ")) {
    counterpart.set(a, b);
    counterpart.set(b, a);
  }
}
const DRUG_WORD = /^[a-z]{4,}$/;
const NOT_DRUG = new Set(["take", "were", "from", "about", "know"]);

function questionsOf(e: AciEncounter, patientId: string, visitId: string): Question[] {
  const seen = new Set<string>();
  const out: Question[] = [];
  for (const m of e.dialogue.toLowerCase().matchAll(/([a-z]+) ,? ?(\d+(?:\.\d+)?) (?:milligrams|mg)\b/g)) {
    const drug = m[1] ?? "";
    const dose = m[2] ?? "";
    if (!DRUG_WORD.test(drug) || NOT_DRUG.has(drug) || seen.has(drug)) continue;
    seen.add(drug);
    // Every other question names the drug the other way (brand ↔ generic) when the lexicon knows it.
    const other = out.length % 2 === 1 ? counterpart.get(drug) : undefined;
    const name = other ?? drug;
    out.push({
      encounter: e.id,
      patientId,
      visitId,
      query: `What dose of ${name} is the patient on?`,
      dose,
      byCounterpart: Boolean(other),
    });
  }
  return out;
}

async function latency(db: Database, actor: { userId: string }, orgId: string, questions: Question[], scoped: boolean) {
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of questions) {
      const t0 = performance.now();
      await ask({ db, actor, orgId, query: q.query, patientId: scoped ? q.patientId : null, language: "en", engine });
      times.push(performance.now() - t0);
    }
  }
  return { p50: pct(times, 50), p95: pct(times, 95), n: times.length };
}

async function main() {
  const encounters = [...loadAciSplit("train"), ...loadAciSplit("valid")];
  if (encounters.length === 0) throw new Error("ACI-Bench not found (MURMUR_SHARED_DATA)");
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
  await migrate(db);
  const userId = await user(db);
  const actor = { userId };
  const orgId = await org(db, userId);
  // One statement at a time: PGlite is a single connection behind the pool.
  const patients: string[] = [];
  for (let i = 0; i < PATIENTS; i++) patients.push(await patient(db, orgId, `ACI patient ${i + 1}`));
  const questions: Question[] = [];
  const t0 = performance.now();
  for (const [i, e] of encounters.entries()) {
    const patientId = patients[i % PATIENTS] as string;
    const day = new Date(Date.UTC(2025, 0, 1 + i * 5)).toISOString().slice(0, 10);
    const visitId = await visit(db, orgId, patientId, `ACI ${e.id}`, day, e.dialogue);
    questions.push(...questionsOf(e, patientId, visitId));
  }
  const importMs = performance.now() - t0;
  const count = async (id: string) =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from public.record_chunks where org_id = ${id}`.execute(db.kysely)).rows[0]
        ?.n,
    );
  const base = await count(orgId);
  console.log(`# Ask Murmur on ACI-Bench train+valid (${db.kind})`);
  console.log(`${encounters.length} encounters as visits of ${PATIENTS} patients: ${base} passages indexed in ${ms(importMs)}`);
  console.log(
    `${questions.length} questions (dose of a drug named in a dialogue; ${questions.filter((q) => q.byCounterpart).length} by the brand/generic name the dialogue does not use)`,
  );

  let hit1 = 0;
  let hit6 = 0;
  let answered = 0;
  const misses: string[] = [];
  for (const q of questions) {
    const hits = (s: { citations: { source: { visit_id: string | null }; snippet: string }[] }, k: number) =>
      s.citations.slice(0, k).some((c) => c.source.visit_id === q.visitId && c.snippet.includes(q.dose));
    const scoped = await search({ db, actor, orgId, query: q.query, patientId: q.patientId, language: "en", limit: 6 });
    if (hits(scoped, 1)) hit1++;
    else misses.push(`${q.encounter} "${q.query}" (${q.dose}): top ${scoped.citations[0]?.snippet.slice(0, 80) ?? "none"}`);
    const wide = await search({ db, actor, orgId, query: q.query, language: "en", limit: 6 });
    if (hits(wide, 6)) hit6++;
    const answer = await ask({ db, actor, orgId, query: q.query, patientId: q.patientId, language: "en", engine });
    if (answer.answer.includes(`${q.dose} `)) answered++;
  }
  const rate = (n: number) => `${((100 * n) / questions.length).toFixed(1)}% (${n}/${questions.length})`;
  console.log(`hit@1 scoped to the patient: ${rate(hit1)}`);
  console.log(`hit@6 organisation-wide:     ${rate(hit6)}`);
  console.log(`answer holds the dose:       ${rate(answered)}`);
  if (process.argv.includes("--misses")) for (const m of misses) console.log(`  miss ${m}`);
  const small = {
    scoped: await latency(db, actor, orgId, questions, true),
    wide: await latency(db, actor, orgId, questions, false),
  };
  console.log(
    `ask latency, ${base} passages: patient p50 ${ms(small.scoped.p50)} p95 ${ms(small.scoped.p95)}; org-wide p50 ${ms(small.wide.p50)} p95 ${ms(small.wide.p95)} (n=${small.scoped.n} each)`,
  );

  // Scale: the same dialogues again as visits of 200 more patients until TARGET_CHUNKS, and 9 other organisations.
  const t1 = performance.now();
  const fillers: string[] = [];
  for (let k = 0; k < 200; k++) fillers.push(await patient(db, orgId, `Filler ${k + 1}`));
  let total = base;
  let i = 0;
  while (total < TARGET_CHUNKS) {
    const e = encounters[i % encounters.length] as AciEncounter;
    const day = new Date(Date.UTC(2020, 0, 1 + (i % 2000))).toISOString().slice(0, 10);
    await visit(db, orgId, fillers[i % fillers.length] as string, `Filler ${i}`, day, e.dialogue);
    total += e.dialogue.split(/[.!?\n]+/).filter((s) => s.trim().length > 1).length;
    i++;
  }
  total = await count(orgId);
  const buildMs = performance.now() - t1;
  let others = 0;
  for (let o = 0; o < OTHER_ORGS; o++) {
    const otherOrg = await org(db, await user(db));
    const p = await patient(db, otherOrg, "Other");
    for (let k = 0; k < 20; k++) {
      const e = encounters[(o * 20 + k) % encounters.length] as AciEncounter;
      await visit(db, otherOrg, p, `Other ${k}`, "2025-06-01", e.dialogue);
    }
    others += await count(otherOrg);
  }
  await sql`analyze public.record_chunks`.execute(db.kysely);
  console.log(
    `scale: ${total} passages in the organisation (+${others} in ${OTHER_ORGS} others); index build ${((1000 * (total - base)) / buildMs).toFixed(0)} passages/s (${i} visits in ${(buildMs / 1000).toFixed(1)} s)`,
  );
  const big = {
    scoped: await latency(db, actor, orgId, questions, true),
    wide: await latency(db, actor, orgId, questions, false),
  };
  console.log(
    `ask latency, ${total} passages: patient p50 ${ms(big.scoped.p50)} p95 ${ms(big.scoped.p95)}; org-wide p50 ${ms(big.wide.p50)} p95 ${ms(big.wide.p95)} (n=${big.scoped.n} each)`,
  );
  await db.close();
}

await main();
