// Ask Murmur records questions on ACI-Bench (issue 28 "Targets"): all train + valid encounters
// are visits of ten patients, each with its dialogue as the imported transcript and its reference
// note as the visit's signed note (bench/rag/aci-records.ts). Questions come from the notes of ONE
// split — `--split valid` (default: the held-out split, never tuned on) or `--split train` (the
// split the weights in search.server.ts and answer/compose.ts were tuned on) — three kinds: the
// plan for the chief complaint, a dose the note states, the assessment of the chief complaint.
// Prints: answer holds the key fact, hit@6 organisation-wide (a passage of the right visit among
// the first six), top-1 scoped to the patient (the first passage is of the right visit), ask
// latency p50/p95, and "corrected wins": each dose the note states is amended to another dose and
// the answer must give the new one, cited to the note, although the recording says the old one.
// `npm run bench:rag` runs it on PGlite; DATABASE_URL=… on PostgreSQL. `--misses` lists failures.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { type Database, openDatabase } from "#app/db/database.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { ask, search } from "#app/services/rag/ask.server.ts";
import { createExtractiveAnswerer } from "#app/services/rag/engines/extractive.ts";
import { fold } from "#app/services/rag/expand.ts";
import { type AciEncounter, aciBenchDir, loadAciSplit, readCsvObjects } from "../notes/aci-data.ts";
import { noteSections, questionsOf, type RecordsQuestion } from "./aci-records.ts";

const SPLIT = (() => {
  const i = process.argv.indexOf("--split");
  const s = i > 0 ? process.argv[i + 1] : "valid";
  if (s !== "train" && s !== "valid") throw new Error("--split train|valid");
  return s;
})();
const PATIENTS = 10;
const engine = createExtractiveAnswerer();
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

type Encounter = AciEncounter & { cc?: string; split: "train" | "valid" };

function load(split: "train" | "valid"): Encounter[] {
  const dir = aciBenchDir();
  const meta = dir
    ? new Map(readCsvObjects(join(dir, "challenge_data", `${split}_metadata.csv`)).map((r) => [r.encounter_id ?? "", r.cc ?? ""]))
    : new Map<string, string>();
  return loadAciSplit(split).map((e) => ({ ...e, cc: meta.get(e.id) || undefined, split }));
}

async function one<T>(db: Database, q: ReturnType<typeof sql<T>>): Promise<T> {
  const { rows } = await q.execute(db.kysely);
  return rows[0] as T;
}

async function main() {
  const encounters = [...load("train"), ...load("valid")];
  if (encounters.length === 0) throw new Error("ACI-Bench not found (MURMUR_SHARED_DATA)");
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
  await migrate(db);
  const { id: userId } = await one<{ id: string }>(
    db,
    sql`insert into auth.users (email, email_confirmed_at) values (${`bench-${crypto.randomUUID()}@example.test`}, now()) returning id`,
  );
  const slug = `bench-${crypto.randomUUID().slice(0, 8)}`;
  const { id: orgId } = await one<{ id: string }>(
    db,
    sql`insert into public.organizations (name, slug, kind, created_by, plan) values (${slug}, ${slug}, 'practice', ${userId}, 'Clinic') returning id`,
  );
  await sql`insert into public.org_members (org_id, user_id, role) values (${orgId}, ${userId}, 'clinician')`.execute(db.kysely);
  const patients: string[] = [];
  for (let i = 0; i < PATIENTS; i++) {
    const p = await one<{ id: string }>(
      db,
      sql`insert into public.patients (org_id, display_name) values (${orgId}, ${`ACI patient ${i + 1}`}) returning id`,
    );
    patients.push(p.id);
  }
  const visitOf = new Map<
    string,
    { visitId: string; patientId: string; noteId: string; note: string; dialogue: string; day: string }
  >();
  for (const [i, e] of encounters.entries()) {
    const patientId = patients[i % PATIENTS] as string;
    const day = new Date(Date.UTC(2025, 0, 1 + i * 5)).toISOString().slice(0, 10);
    const { id: visitId } = await one<{ id: string }>(
      db,
      sql`insert into public.visits (org_id, patient_id, title, language, consent_at, status, visit_date)
          values (${orgId}, ${patientId}, ${`ACI ${e.id}`}, 'en', now(), 'transcribed', ${day}::date) returning id`,
    );
    await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text)
      values (${orgId}, ${visitId}, 1, 'import', 'import', 'en', ${e.dialogue})`.execute(db.kysely);
    const content = JSON.stringify(noteSections(e.note).map((s) => ({ ...s, sentences: [] })));
    const { id: noteId } = await one<{ id: string }>(
      db,
      sql`insert into public.notes (org_id, visit_id, patient_id, template_id, template, language, status, sections, content, signed_at)
          values (${orgId}, ${visitId}, ${patientId}, 'bench:aci', '{}'::jsonb, 'en', 'signed', ${content}::jsonb, ${content}::jsonb,
                  ${`${day}T12:00:00Z`}::timestamptz) returning id`,
    );
    visitOf.set(e.id, { visitId, patientId, noteId, note: e.note, dialogue: e.dialogue, day });
  }
  await sql`analyze public.record_chunks`.execute(db.kysely);
  const questions: RecordsQuestion[] = encounters.filter((e) => e.split === SPLIT).flatMap((e) => questionsOf(e));
  const { n: passages } = await one<{ n: string }>(
    db,
    sql`select count(*) as n from public.record_chunks where org_id = ${orgId}`,
  );
  console.log(`# Ask Murmur records questions on ACI-Bench (${db.kind}), questions from the ${SPLIT} split`);
  console.log(
    `${encounters.length} encounters (train + valid) as visits of ${PATIENTS} patients, transcript + signed note each: ${passages} passages`,
  );
  const kinds = ["plan", "dose", "assessment"] as const;
  console.log(
    `${questions.length} questions: ${kinds.map((k) => `${questions.filter((q) => q.kind === k).length} ${k}`).join(", ")}`,
  );

  const actor = { userId };
  const tally = { fact: 0, hit6: 0, top1: 0 };
  const byKind = new Map<string, { fact: number; n: number }>();
  const misses: string[] = [];
  const times: { scoped: number[]; wide: number[] } = { scoped: [], wide: [] };
  for (const q of questions) {
    const v = visitOf.get(q.encounter);
    if (!v) continue;
    const wide = await search({ db, actor, orgId, query: q.query, language: "en", limit: 6 });
    if (wide.citations.slice(0, 6).some((c) => c.source.visit_id === v.visitId)) tally.hit6++;
    const scoped = await search({ db, actor, orgId, query: q.query, patientId: v.patientId, language: "en", limit: 6 });
    if (scoped.citations[0]?.source.visit_id === v.visitId) tally.top1++;
    const t0 = performance.now();
    const answer = await ask({ db, actor, orgId, query: q.query, patientId: v.patientId, language: "en", engine });
    times.scoped.push(performance.now() - t0);
    const t1 = performance.now();
    await ask({ db, actor, orgId, query: q.query, language: "en", engine });
    times.wide.push(performance.now() - t1);
    const holds = fold(answer.answer).includes(fold(q.fact));
    const k = byKind.get(q.kind) ?? { fact: 0, n: 0 };
    byKind.set(q.kind, { fact: k.fact + (holds ? 1 : 0), n: k.n + 1 });
    if (holds) tally.fact++;
    else
      misses.push(`${q.encounter} ${q.kind} "${q.query}" wants "${q.fact}": ${answer.answer.slice(0, 160).replace(/\n/g, " ")}`);
  }
  const rate = (n: number, of = questions.length) => `${((100 * n) / Math.max(of, 1)).toFixed(1)}% (${n}/${of})`;
  console.log(
    `answer holds the key fact:   ${rate(tally.fact)}  [${[...byKind].map(([k, v]) => `${k} ${v.fact}/${v.n}`).join(", ")}]`,
  );
  console.log(`hit@6 organisation-wide:     ${rate(tally.hit6)}`);
  console.log(`top-1 scoped to the patient: ${rate(tally.top1)}`);
  console.log(
    `ask latency (in-process, ${passages} passages): patient p50 ${pct(times.scoped, 50).toFixed(1)} ms p95 ${pct(times.scoped, 95).toFixed(1)} ms; org-wide p50 ${pct(times.wide, 50).toFixed(1)} ms p95 ${pct(times.wide, 95).toFixed(1)} ms (n=${times.wide.length} each; load average ${(await import("node:os")).loadavg()[0]?.toFixed(1)} on a shared machine)`,
  );
  if (process.argv.includes("--misses")) for (const m of misses) console.log(`  miss ${m}`);

  // Corrected wins: amend the note's dose (the recording still says the old one) and ask again,
  // about that visit (date filter).
  let corrected = 0;
  let tried = 0;
  for (const q of questions.filter((x) => x.kind === "dose")) {
    const v = visitOf.get(q.encounter);
    if (!v) continue;
    const old = q.fact.replace(" mg", "");
    const next = String(Number(old) * 2 + 5);
    const sections = noteSections(v.note).map((s) => ({
      ...s,
      text: s.text.replaceAll(`${old} mg`, `${next} mg`),
      sentences: [],
    }));
    await sql`update public.notes set status = 'amended', content = ${JSON.stringify(sections)}::jsonb where id = ${v.noteId}`.execute(
      db.kysely,
    );
    tried++;
    // That visit's records only (its day): another visit's note may rightly state another dose.
    const filters = { date_from: v.day, date_to: v.day };
    const answer = await ask({ db, actor, orgId, query: q.query, patientId: v.patientId, filters, language: "en", engine });
    // The source the answer leads with: its first [n] marker.
    const lead = Number(/\[(\d+)\]/.exec(answer.answer)?.[1] ?? 0);
    const first = answer.citations[lead - 1];
    const ok =
      answer.answer.includes(`${next} mg`) && first?.source.table === "doctor_notes" && first.source.visit_id === v.visitId;
    if (ok) corrected++;
    else if (process.argv.includes("--misses")) console.log(`  not corrected ${q.encounter}: ${answer.answer.slice(0, 160)}`);
  }
  console.log(`corrected note wins over the recording: ${rate(corrected, tried)}`);
  await db.close();
}

await main();
