// Audit benchmark (issue 17): what auditing a read costs a page, and how fast an owner's export
// streams. (1) GET /api/visits/:id's service (getVisit, which now writes one audit row in its own
// transaction) against the same reads without the row, interleaved run by run so both see the same
// machine load; (2) exportAuditLog over --rows generated entries, CSV, read to the end. Synthetic
// data (no split: nothing is learned). Server PostgreSQL with DATABASE_URL, else in-memory PGlite.
// Usage: node bench/audit/run.ts [--runs 300] [--rows 20000]
import os from "node:os";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { openDatabase } from "#app/db/database.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { exportAuditLog } from "#app/services/orgs/audit-export.server.ts";
import { asActor } from "#app/services/orgs/context.server.ts";
import { requireClinicalRole } from "#app/services/visits/access.server.ts";
import { latestTranscription } from "#app/services/visits/transcripts.server.ts";
import { loadVisit } from "#app/services/visits/visit-rows.server.ts";
import { getVisit } from "#app/services/visits/visits.server.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "300" }, rows: { type: "string", default: "20000" } },
});
const runs = Number(values.runs);
const rows = Number(values.rows);

const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined });
const suffix = Math.random().toString(36).slice(2, 10);
const one = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(db.kysely)).rows[0] as T;
try {
  await migrate(db);
  const user = await one(sql<{ id: string }>`
    insert into auth.users (email, email_confirmed_at) values (${`bench-audit-${suffix}@example.test`}, now()) returning id`);
  const org = await one(sql<{ id: string }>`
    insert into public.organizations (name, slug, kind, plan, timezone, created_by)
    values ('Bench audit', ${`bench-audit-${suffix}`}, 'practice', 'Clinic', 'America/New_York', ${user.id}) returning id`);
  await sql`insert into public.org_members (org_id, user_id, role) values (${org.id}, ${user.id}, 'owner')`.execute(db.kysely);
  const patient = await one(sql<{ id: string }>`
    insert into public.patients (org_id, display_name) values (${org.id}, 'Bench patient') returning id`);
  const visit = await one(sql<{ id: string }>`
    insert into public.visits (org_id, patient_id, language, consent_at, status)
    values (${org.id}, ${patient.id}, 'en', now(), 'transcribed') returning id`);
  await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text, segments)
    values (${org.id}, ${visit.id}, 1, 'engine', 'bench', 'en', ${"word ".repeat(1500)}, '[]'::jsonb)`.execute(db.kysely);

  const args = { db, actor: { userId: user.id }, orgId: org.id, meta: { ip: "127.0.0.1", userAgent: "bench" } };
  // getVisit's reads, without the audit row: the baseline a read had before issue 17.
  const withoutAudit = () =>
    asActor(args, org.id, async (trx) => {
      await requireClinicalRole(trx, org.id, user.id);
      const row = await loadVisit(trx, org.id, visit.id);
      await trx
        .selectFrom("patients")
        .select(["id", "display_name"])
        .where("org_id", "=", org.id)
        .where("id", "=", row.patient_id)
        .executeTakeFirstOrThrow();
      return latestTranscription(trx, org.id, row.id);
    });
  const withAudit = () => getVisit({ ...args, visitId: visit.id });
  for (let i = 0; i < 20; i++) await Promise.all([withoutAudit(), withAudit()]);
  const time = async (fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first, so neither always runs on a warmer cache.
    if (i % 2) {
      a.push(await time(withoutAudit));
      b.push(await time(withAudit));
    } else {
      b.push(await time(withAudit));
      a.push(await time(withoutAudit));
    }
  }
  const pct = (xs: number[], p: number) =>
    [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
  const fmt = (n: number) => n.toFixed(2).padStart(8);

  await sql`
    insert into public.audit_log (org_id, actor_id, action, entity, entity_id, at, ip, details)
    select ${org.id}, ${user.id}, 'visit.read', 'visit', ${visit.id}, timestamptz '2026-01-01Z' + g * interval '1 second', '127.0.0.1',
           jsonb_build_object('patient_id', ${patient.id}::text)
    from generate_series(1, ${rows}) g`.execute(db.kysely);
  const started = performance.now();
  const file = await exportAuditLog({ ...args, format: "csv", filters: { from: "2025-12-31", to: "2026-12-31" } });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of file.body) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const exportMs = performance.now() - started;

  console.log(
    `database: ${process.env.DATABASE_URL ? "postgres" : "pglite"}, runs: ${runs}, load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} on ${os.cpus().length} CPUs`,
  );
  console.log("| read of one visit (ms)          |      p50 |      p95 |     mean |");
  console.log("| ------------------------------- | -------: | -------: | -------: |");
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  console.log(`| without the audit row (before)  | ${fmt(pct(a, 50))} | ${fmt(pct(a, 95))} | ${fmt(mean(a))} |`);
  console.log(`| getVisit with its audit row     | ${fmt(pct(b, 50))} | ${fmt(pct(b, 95))} | ${fmt(mean(b))} |`);
  console.log(
    `| difference                      | ${fmt(pct(b, 50) - pct(a, 50))} | ${fmt(pct(b, 95) - pct(a, 95))} | ${fmt(mean(b) - mean(a))} |`,
  );
  console.log(
    `export: ${lines - 1} rows, ${(bytes / 1e6).toFixed(2)} MB CSV in ${exportMs.toFixed(0)} ms (${Math.round(((lines - 1) / exportMs) * 1000)} rows/s)`,
  );
} finally {
  await db.close();
}
