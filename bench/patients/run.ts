// /patients table benchmark (issue 29 "Patients": p95 ≤ 150 ms for a page of a practice with
// 10,000 patients on the embedded database). Generates the practice — patients with varied names,
// dates of birth and external ids, ~3 visits each over two years, a signed note on most visits and
// an open draft on some — then times listPatientTable (the /patients loader's one service call)
// for every sort, both directions, deep pages and searches, as the owner and as staff.
// In-memory PGlite by default, server PostgreSQL with DATABASE_URL.
// Usage: node bench/patients/run.ts [--patients 10000] [--runs 40] [--seed 1]
// --seed changes the generated names and dates (the data the figures are reported on is seed 1;
// the queries were written and checked against seed 7).
import os from "node:os";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { openDatabase } from "#app/db/database.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { listPatientTable, type PatientTableSort, type SortDir } from "#app/services/patients/patient-table.server.ts";

const { values } = parseArgs({
  options: {
    patients: { type: "string", default: "10000" },
    runs: { type: "string", default: "40" },
    seed: { type: "string", default: "1" },
  },
});
const patients = Number(values.patients);
const runs = Number(values.runs);
const seed = Number(values.seed);

const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, poolSize: 1 });
const suffix = Math.random().toString(36).slice(2, 10);
let orgId = "";
const started = performance.now();
const step = (what: string) => console.error(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${what}`);
try {
  await migrate(db);
  step("migrated");
  const users: string[] = [];
  for (const i of [0, 1]) {
    const { rows } = await sql<{ id: string }>`
      insert into auth.users (email, email_confirmed_at) values (${`bench-pt-${suffix}-${i}@example.test`}, now())
      returning id`.execute(db.kysely);
    users.push(rows[0]?.id ?? "");
  }
  const [owner = "", staff = ""] = users;
  const { rows } = await sql<{ id: string }>`
    insert into public.organizations (name, slug, kind, plan, timezone, created_by)
    values ('Bench patients', ${`bench-pt-${suffix}`}, 'practice', 'Clinic', 'Europe/Paris', ${owner}) returning id`.execute(
    db.kysely,
  );
  orgId = rows[0]?.id ?? "";
  await sql`insert into public.org_members (org_id, user_id, role) values (${orgId}, ${owner}, 'owner'), (${orgId}, ${staff}, 'staff')`.execute(
    db.kysely,
  );
  const t0 = performance.now();
  // Set-based and deterministic per seed: hashtext of (seed, row number), no random().
  await sql`
    insert into public.patients (org_id, display_name, date_of_birth, external_id, sex)
    select ${orgId}::uuid,
      (array['Anna','Louis','Marta','Jean','Chloé','Pablo','Inès','Noah','Zoe','Hugo','Lucía','Omar','Yuki','Sven','Aïcha','Tom'])[1 + abs(hashtext(${seed} || '-f-' || i)) % 16]
        || ' ' ||
      (array['Martin','Bernard','García','Dubois','Smith','Nguyen','López','Moreau','Okafor','Kowalski','Rossi','Dupont','Brown','Haddad','Ivanova','Fernández','Leroy','Schmidt','Tanaka','Wilson'])[1 + abs(hashtext(${seed} || '-l-' || i)) % 20]
        || ' ' || (i % 97),
      case when abs(hashtext(${seed} || '-d-' || i)) % 10 = 0 then null
        else date '1930-01-01' + (abs(hashtext(${seed} || '-b-' || i)) % 32000) end,
      case when abs(hashtext(${seed} || '-e-' || i)) % 5 = 0 then null else 'PMS-' || (100000 + i) end,
      (array['female','male','other','unknown'])[1 + abs(hashtext(${seed} || '-s-' || i)) % 4]
    from generate_series(1, ${patients}::int) i`.execute(db.kysely);
  step("patients");
  await sql`
    insert into public.visits (org_id, patient_id, language, consent_at, status, created_at, updated_at)
    select p.org_id, p.id, 'en', t, 'transcribed', t, t
    from public.patients p
    cross join lateral generate_series(1, abs(hashtext(${seed} || '-n-' || p.id::text)) % 6) k
    cross join lateral (select now() - make_interval(secs => abs(hashtext(${seed} || '-t-' || p.id::text || k)) % (730 * 86400)) as t) at
    where p.org_id = ${orgId}::uuid`.execute(db.kysely);
  step("visits");
  await sql`
    insert into public.notes (org_id, visit_id, patient_id, template_id, template, language, status, created_at)
    select v.org_id, v.id, v.patient_id, 'builtin:soap', '{}'::jsonb, 'en',
      case when abs(hashtext(${seed} || '-o-' || v.id::text)) % 12 = 0 then 'draft' else 'signed' end, v.created_at
    from public.visits v where v.org_id = ${orgId}::uuid`.execute(db.kysely);
  await sql`analyze`.execute(db.kysely);
  const counts = await sql<{ visits: string; drafts: string }>`
    select (select count(*) from public.visits where org_id = ${orgId}) as visits,
           (select count(*) from public.notes where org_id = ${orgId} and status = 'draft') as drafts`.execute(db.kysely);
  console.log(
    `${db.kind}, seed ${seed}: ${patients} patients, ${counts.rows[0]?.visits} visits, ${counts.rows[0]?.drafts} open drafts, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  console.log(`Load average (1 min): ${os.loadavg()[0]?.toFixed(2)} on ${os.cpus().length} CPUs`);
  const lastPage = Math.ceil(patients / 25);
  const scenarios: [string, string, { q?: string; sort?: PatientTableSort; dir?: SortDir; page?: number }][] = [
    ["owner, default (name ↑, page 1)", owner, {}],
    ["owner, name ↓, last page", owner, { sort: "name", dir: "desc", page: lastPage }],
    ["owner, date of birth ↑, page 50", owner, { sort: "date_of_birth", page: 50 }],
    ["owner, external id ↓", owner, { sort: "external_id", dir: "desc" }],
    ["owner, last visit ↓ (newest)", owner, { sort: "last_visit", dir: "desc" }],
    ["owner, open drafts ↓", owner, { sort: "open_drafts", dir: "desc" }],
    ["owner, search 'mar' (name part)", owner, { q: "mar" }],
    ["owner, search 'pms-1042' (id prefix)", owner, { q: "pms-1042" }],
    ["owner, search a date of birth", owner, { q: "1975-06-01" }],
    ["staff, default (no drafts column)", staff, {}],
  ];
  // On PGlite the database runs in this process: its CPU time per call (user + system) is the work
  // done, whatever else the machine runs; on an idle machine it is the wall-clock time.
  console.log(
    "| scenario | runs | p50 ms | p95 ms | max ms | CPU p50 ms | CPU p95 ms |\n| --- | --- | --- | --- | --- | --- | --- |",
  );
  const at = (list: number[], q: number) => {
    const sorted = [...list].sort((a, b) => a - b);
    return (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0).toFixed(1);
  };
  for (const [name, userId, query] of scenarios) {
    const call = () => listPatientTable({ db, actor: { userId }, orgId, ...query });
    for (let i = 0; i < 3; i++) await call();
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < runs; i++) {
      const c = process.cpuUsage();
      const s = performance.now();
      await call();
      times.push(performance.now() - s);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
    }
    console.log(
      `| ${name} | ${runs} | ${at(times, 0.5)} | ${at(times, 0.95)} | ${at(times, 1)} | ${at(cpu, 0.5)} | ${at(cpu, 0.95)} |`,
    );
  }
} finally {
  await db.kysely.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    for (const table of ["notes", "visits", "patients", "org_members"]) {
      await sql`delete from ${sql.table(`public.${table}`)} where org_id = ${orgId || null}`.execute(trx);
    }
    await sql`delete from public.organizations where id = ${orgId || null}`.execute(trx);
    await sql`delete from auth.users where email like ${`bench-pt-${suffix}-%`}`.execute(trx);
  });
  await db.close();
}
