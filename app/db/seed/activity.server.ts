import { sql } from "kysely";
import type { Database } from "../database.server.ts";
import { DEMO_ORG_SLUG } from "./organizations.server.ts";
import type { Seeder } from "./run.server.ts";

// Generated activity (issue 16): weeks of visits and notes so the dashboard's charts show
// something real in the demo, and a year of it for a 10-clinician practice in bench/dashboard.
// Set-based SQL through the owner connection (seeding is set-up, not a user action), deterministic
// (hashtext of the row number, no random()), relative to `now` so the last days are always filled.
// Patients are "Demo patient N" with external ids DEMO-ACT-N: no real person.

export interface ActivityOptions {
  orgId: string;
  clinicians: string[];
  days: number;
  visitsPerDay: number;
  patients: number;
  now: Date;
}

export async function generateActivity(db: Database, o: ActivityOptions): Promise<{ visits: number; notes: number }> {
  const clinicians = `{${o.clinicians.join(",")}}`;
  await sql`
    insert into public.patients (org_id, display_name, external_id)
    select ${o.orgId}::uuid, 'Demo patient ' || i, 'DEMO-ACT-' || i from generate_series(1, ${o.patients}::int) i
    on conflict do nothing`.execute(db.kysely);
  const { rows: visits } = await sql<{ n: number }>`
    with gen as (
      select n, abs(hashtext('v' || n)) as h, n / ${o.visitsPerDay}::int as d, n % ${o.visitsPerDay}::int as slot
      from generate_series(0, ${o.days * o.visitsPerDay - 1}::int) n
    ), timed as (
      select gen.*, date_trunc('day', ${o.now.toISOString()}::timestamptz) - make_interval(days => d)
        + make_interval(mins => 7 * 60 + (slot * 600 / ${o.visitsPerDay}::int) + (h % 9)::int) as at
      from gen
    ), ins as (
      insert into public.visits (org_id, patient_id, clinician_id, title, language, consent_at, status,
                                 audio_duration_ms, uploaded_at, recording_started_at, transcribed_at, created_at, updated_at)
      select ${o.orgId}::uuid,
        (select p.id from public.patients p where p.org_id = ${o.orgId}::uuid and p.external_id = 'DEMO-ACT-' || (1 + h % ${o.patients}::int)),
        (${clinicians}::uuid[])[1 + (h / 7) % ${o.clinicians.length}::int],
        'Demo visit', 'en', at,
        case when h % 29 = 0 then 'failed' when d = 0 and slot >= ${o.visitsPerDay}::int - 1 then 'transcribing' else 'transcribed' end,
        (240 + h % 900) * 1000, at + make_interval(secs => 240 + h % 900), at,
        at + make_interval(secs => 300 + h % 900), at, at
      from timed where at <= ${o.now.toISOString()}::timestamptz
      returning id, status, uploaded_at, patient_id, created_at
    )
    select count(*)::int as n from ins`.execute(db.kysely);
  // Fresh statistics: planned against an "empty" visits table, the notes insert's anti-join below
  // becomes a nested loop over tens of thousands of rows.
  await sql`analyze public.visits, public.notes`.execute(db.kysely);
  const { rows: notes } = await sql<{ n: number }>`
    with src as (
      select v.id, v.patient_id, v.clinician_id, v.uploaded_at, abs(hashtext('n' || v.id::text)) as h
      from public.visits v
      where v.org_id = ${o.orgId}::uuid and v.status = 'transcribed' and v.title = 'Demo visit'
        and not exists (select 1 from public.notes n where n.org_id = v.org_id and n.visit_id = v.id)
    ), ins as (
      insert into public.notes (org_id, visit_id, patient_id, template_id, template, language, status,
                                generated_at, signed_at, signed_by, created_by, created_at, updated_at)
      select ${o.orgId}::uuid, id, patient_id, 'builtin:soap', '{}'::jsonb, 'en',
        case when h % 9 = 0 or uploaded_at > ${o.now.toISOString()}::timestamptz - interval '1 day' and h % 2 = 0 then 'draft' else 'signed' end,
        uploaded_at + make_interval(secs => 20 + h % 100),
        case when h % 9 = 0 or uploaded_at > ${o.now.toISOString()}::timestamptz - interval '1 day' and h % 2 = 0 then null
             else least(uploaded_at + make_interval(secs => 300 + h % 14400), ${o.now.toISOString()}::timestamptz) end,
        case when h % 9 = 0 or uploaded_at > ${o.now.toISOString()}::timestamptz - interval '1 day' and h % 2 = 0 then null else clinician_id end,
        clinician_id, uploaded_at, uploaded_at
      from src
      returning id
    )
    select count(*)::int as n from ins`.execute(db.kysely);
  return { visits: visits[0]?.n ?? 0, notes: notes[0]?.n ?? 0 };
}

/** Four weeks of demo activity in the demo practice, spread over its clinician and owner. Once. */
export function activitySeeder(now = () => new Date()): Seeder {
  return {
    name: "activity",
    async run(db: Database) {
      const org = await db.kysely.selectFrom("organizations").select("id").where("slug", "=", DEMO_ORG_SLUG).executeTakeFirst();
      if (!org) return "no demo practice: skipped";
      const done = await db.kysely
        .selectFrom("patients")
        .select("id")
        .where("org_id", "=", org.id)
        .where("external_id", "=", "DEMO-ACT-1")
        .executeTakeFirst();
      if (done) return "demo activity already present";
      const members = await db.kysely
        .selectFrom("org_members")
        .select("user_id")
        .where("org_id", "=", org.id)
        .where("role", "in", ["clinician", "owner"])
        .orderBy("role")
        .execute();
      const made = await generateActivity(db, {
        orgId: org.id,
        clinicians: members.map((m) => m.user_id),
        days: 28,
        visitsPerDay: 6,
        patients: 40,
        now: now(),
      });
      return `${made.visits} generated visits and ${made.notes} notes over 28 days`;
    },
  };
}
