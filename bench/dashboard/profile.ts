// Dashboard profile (issue 16): where the loader's time goes, statement by statement. Generates the
// bench's data set once into DATABASE_URL (kept between runs, org slug "bench-profile"), then runs
// the loader's calls with every statement timed, and EXPLAIN (ANALYZE, BUFFERS) of the slowest as the
// app's role under row-level security. Usage: node bench/dashboard/profile.ts [--explain 3] [--range 365]
import { parseArgs } from "node:util";
import { Kysely, PostgresDialect, sql } from "kysely";
import { withActor } from "#app/db/actor.server.ts";
import { openDatabase } from "#app/db/database.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import type { DB } from "#app/db/schema.ts";
import { generateActivity } from "#app/db/seed/activity.server.ts";
import { loadDashboardData } from "#app/services/dashboard/dashboard.server.ts";
import type { DashboardRangeQuery } from "#app/services/dashboard/schema.ts";
import { getFirstRunProgress } from "#app/services/onboarding/first-run.server.ts";
import { findPatients, listRecentVisits } from "#app/services/patients/directory.server.ts";

const { values } = parseArgs({
  options: {
    explain: { type: "string", default: "3" },
    range: { type: "string", default: "365" },
    runs: { type: "string", default: "10" },
    clinician: { type: "boolean", default: false },
  },
});
const NOW = new Date("2026-11-25T16:00:00Z");
const base = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined });
const stats = new Map<string, { ms: number[]; sql: string; params: readonly unknown[] }>();
const kysely = new Kysely<DB>({
  dialect: new PostgresDialect({ pool: base.pool }),
  log(event) {
    const text = event.query.sql;
    if (/^\s*(set local|select set_config|begin|commit)/i.test(text)) return;
    const key = text.replace(/\s+/g, " ").slice(0, 110);
    const entry = stats.get(key) ?? { ms: [], sql: text, params: event.query.parameters };
    entry.ms.push(event.queryDurationMillis);
    stats.set(key, entry);
  },
});
const db = { ...base, kysely };
await migrate(base);
let { rows } = await sql<{
  id: string;
  created_by: string;
}>`select id, created_by from public.organizations where slug = 'bench-profile'`.execute(base.kysely);
if (!rows[0]) {
  const users: string[] = [];
  for (let i = 0; i < 11; i++) {
    const { rows: u } = await sql<{ id: string }>`
      insert into auth.users (email, email_confirmed_at, raw_user_meta_data)
      values (${`bench-profile-${i}@example.test`}, now(), ${JSON.stringify({ full_name: `Bench clinician ${i}` })}::jsonb)
      returning id`.execute(base.kysely);
    users.push(u[0]?.id ?? "");
  }
  ({ rows } = await sql<{ id: string; created_by: string }>`
    insert into public.organizations (name, slug, kind, plan, timezone, created_by)
    values ('Bench practice', 'bench-profile', 'practice', 'Clinic', 'Europe/Paris', ${users[0]}) returning id, created_by`.execute(
    base.kysely,
  ));
  const orgId = rows[0]?.id ?? "";
  for (const [i, user] of users.entries()) {
    await sql`insert into public.org_members (org_id, user_id, role) values (${orgId}, ${user}, ${i === 0 ? "owner" : "clinician"})`.execute(
      base.kysely,
    );
  }
  await generateActivity(base, { orgId, clinicians: users.slice(1), days: 365, visitsPerDay: 110, patients: 3000, now: NOW });
  await sql`analyze`.execute(base.kysely);
}
const orgId = rows[0]?.id ?? "";
let userId = rows[0]?.created_by ?? "";
if (values.clinician) {
  const { rows: c } = await sql<{ user_id: string }>`
    select user_id from public.org_members where org_id = ${orgId} and role = 'clinician' order by user_id limit 1`.execute(
    base.kysely,
  );
  userId = c[0]?.user_id ?? "";
}
const range = Number(values.range);
const query: DashboardRangeQuery =
  range === 365 ? { range: "custom", from: "2025-11-26", to: "2026-11-25" } : range === 30 ? {} : { range: String(range) as "7" };
const args = { db, actor: { userId }, orgId };
const times: number[] = [];
for (let i = 0; i < Number(values.runs) + 3; i++) {
  if (i === 3) {
    stats.clear();
    times.length = 0;
  }
  const t0 = performance.now();
  await loadDashboardData({ ...args, query, now: NOW });
  await findPatients({ ...args, q: "", page: 1 });
  await listRecentVisits({ ...args, page: 1 });
  await getFirstRunProgress(args);
  times.push(performance.now() - t0);
}
const median = (l: number[]) => [...l].sort((a, b) => a - b)[Math.floor(l.length / 2)] ?? 0;
const sorted = [...stats.entries()].sort((a, b) => median(b[1].ms) - median(a[1].ms));
const total = sorted.reduce((s, [, e]) => s + median(e.ms) * (e.ms.length / Number(values.runs)), 0);
console.log(
  `${base.kind}, range ${range} days, ${values.clinician ? "clinician" : "owner"}: loader median ${median(times).toFixed(1)} ms, statements ${total.toFixed(1)} ms`,
);
for (const [key, e] of sorted)
  console.log(`${median(e.ms).toFixed(2).padStart(8)} ms ×${e.ms.length / Number(values.runs)}  ${key}`);
for (const [, e] of sorted.slice(0, Number(values.explain))) {
  const plan = await withActor(db, { userId, orgId }, (trx) =>
    sql.raw<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${inline(e.sql, e.params)}`).execute(trx),
  );
  console.log(`\n${e.sql.replace(/\s+/g, " ")}\n${plan.rows.map((r) => r["QUERY PLAN"]).join("\n")}`);
}
await base.close();

/** The statement with its parameters written in, for EXPLAIN (which takes no bind parameters here). */
function inline(text: string, params: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n) => {
    const v = params[Number(n) - 1];
    if (v === null || v === undefined) return "null";
    if (typeof v === "number") return String(v);
    const s =
      v instanceof Date
        ? v.toISOString()
        : Array.isArray(v)
          ? `{${v.map((x) => `"${String(x)}"`).join(",")}}`
          : typeof v === "object"
            ? JSON.stringify(v)
            : String(v);
    return `'${s.replace(/'/g, "''")}'`;
  });
}
