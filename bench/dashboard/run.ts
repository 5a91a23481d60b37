// Dashboard benchmark (issue 16): a year of generated activity for a 10-clinician practice
// (≈40,000 visits and notes), then the dashboard loader's queries timed in-process — the figures
// (loadDashboardData) plus the patient search, recent visits and first-run checklist the page loads
// beside them, one after the other like the loader. Server PostgreSQL with DATABASE_URL, else an
// in-memory PGlite. Usage: node bench/dashboard/run.ts [--days 365] [--per-day 110] [--runs 60]
//
// One connection, so that on a server PostgreSQL running on this machine the bench can also print
// the server CPU time per loader call (its backend's utime + stime from /proc, 10 ms ticks summed
// over the runs): unlike the wall-clock figures it does not grow with the machine's load.
import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { openDatabase } from "#app/db/database.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { generateActivity } from "#app/db/seed/activity.server.ts";
import { loadDashboardData } from "#app/services/dashboard/dashboard.server.ts";
import type { DashboardRangeQuery } from "#app/services/dashboard/schema.ts";
import { getFirstRunProgress } from "#app/services/onboarding/first-run.server.ts";
import { findPatients, listRecentVisits } from "#app/services/patients/directory.server.ts";

const { values } = parseArgs({
  options: {
    days: { type: "string", default: "365" },
    "per-day": { type: "string", default: "110" },
    runs: { type: "string", default: "60" },
  },
});
const days = Number(values.days);
const perDay = Number(values["per-day"]);
const runs = Number(values.runs);
const NOW = new Date("2026-11-25T16:00:00Z");

const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, poolSize: 1 });
const suffix = Math.random().toString(36).slice(2, 10);
let orgId = "";
try {
  await migrate(db);
  const users: string[] = [];
  for (let i = 0; i < 11; i++) {
    const { rows } = await sql<{ id: string }>`
      insert into auth.users (email, email_confirmed_at, raw_user_meta_data)
      values (${`bench-${suffix}-${i}@example.test`}, now(), ${JSON.stringify({ full_name: `Bench clinician ${i}` })}::jsonb)
      returning id`.execute(db.kysely);
    users.push(rows[0]?.id ?? "");
  }
  const { rows } = await sql<{ id: string }>`
    insert into public.organizations (name, slug, kind, plan, timezone, created_by)
    values ('Bench practice', ${`bench-${suffix}`}, 'practice', 'Clinic', 'Europe/Paris', ${users[0]}) returning id`.execute(
    db.kysely,
  );
  orgId = rows[0]?.id ?? "";
  for (const [i, user] of users.entries()) {
    await sql`insert into public.org_members (org_id, user_id, role) values (${orgId}, ${user}, ${i === 0 ? "owner" : "clinician"})`.execute(
      db.kysely,
    );
  }
  let t0 = performance.now();
  const made = await generateActivity(db, {
    orgId,
    clinicians: users.slice(1),
    days,
    visitsPerDay: perDay,
    patients: 3000,
    now: NOW,
  });
  await sql`analyze`.execute(db.kysely);
  const serverCpuMs = await backendCpu();
  console.log(
    `${db.kind}: generated ${made.visits} visits, ${made.notes} notes and ${made.codingCases} coding cases in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const scenarios: [string, string, DashboardRangeQuery][] = [
    ["owner, practice, 7 days", users[0] ?? "", { range: "7" }],
    ["owner, practice, 30 days (default)", users[0] ?? "", {}],
    ["owner, practice, 90 days", users[0] ?? "", { range: "90" }],
    ["owner, practice, 365 days", users[0] ?? "", { range: "custom", from: "2025-11-26", to: "2026-11-25" }],
    ["clinician, own, 30 days (default)", users[1] ?? "", {}],
  ];
  console.log(`Load average (1 min): ${os.loadavg()[0]?.toFixed(2)} on ${os.cpus().length} CPUs`);
  console.log(
    `| scenario | runs | figures p50 ms | figures p95 ms | loader p50 ms | loader p95 ms | server CPU ms/loader |\n| --- | --- | --- | --- | --- | --- | --- |`,
  );
  for (const [name, userId, query] of scenarios) {
    const args = { db, actor: { userId }, orgId };
    const figures: number[] = [];
    const once = async () => {
      const f0 = performance.now();
      await loadDashboardData({ ...args, query, now: NOW });
      figures.push(performance.now() - f0);
      await findPatients({ ...args, q: "", page: 1 });
      await listRecentVisits({ ...args, page: 1 });
      await getFirstRunProgress(args);
    };
    for (let i = 0; i < 5; i++) await once();
    figures.length = 0;
    const times: number[] = [];
    const cpu0 = serverCpuMs();
    for (let i = 0; i < runs; i++) {
      t0 = performance.now();
      await once();
      times.push(performance.now() - t0);
    }
    const at = (list: number[], q: number) => {
      const sorted = [...list].sort((a, b) => a - b);
      return (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0).toFixed(1);
    };
    const cpu = cpu0 === null ? "n/a" : (((serverCpuMs() ?? 0) - cpu0) / runs).toFixed(0);
    console.log(
      `| ${name} | ${runs} | ${at(figures, 0.5)} | ${at(figures, 0.95)} | ${at(times, 0.5)} | ${at(times, 0.95)} | ${cpu} |`,
    );
  }
} finally {
  // Signed notes refuse deletion (they are records); the bench's are not: triggers off for the clean-up.
  await db.kysely.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    for (const table of [
      "coding_lines",
      "coding_cases",
      "note_versions",
      "notes",
      "visits",
      "patients",
      "invitations",
      "org_members",
    ]) {
      await sql`delete from ${sql.table(`public.${table}`)} where org_id = ${orgId || null}`.execute(trx);
    }
    await sql`delete from public.organizations where id = ${orgId || null}`.execute(trx);
    await sql`delete from auth.users where email like ${`bench-${suffix}-%`}`.execute(trx);
  });
  await db.close();
}

/** The bench connection's server process CPU time reader, or a reader of null when it is not a local process (PGlite, a remote server). */
async function backendCpu(): Promise<() => number | null> {
  if (db.kind !== "postgres") return () => null;
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely);
  const file = `/proc/${rows[0]?.pid}/stat`;
  return () => {
    try {
      const fields = fs.readFileSync(file, "utf8").split(") ")[1]?.split(" ") ?? [];
      return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
    } catch {
      return null;
    }
  };
}
