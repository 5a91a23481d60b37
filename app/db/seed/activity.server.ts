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

export async function generateActivity(
  db: Database,
  o: ActivityOptions,
): Promise<{ visits: number; notes: number; codingCases: number }> {
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
  // Same again for the coding cases' anti-join: against notes planned as "empty", it probes the
  // cases being inserted once per note (quadratic: minutes for a year of a 10-clinician practice).
  await sql`analyze public.notes`.execute(db.kysely);
  const codingCases = await generateCoding(db, o);
  return { visits: visits[0]?.n ?? 0, notes: notes[0]?.n ?? 0, codingCases };
}

// Codes of the generated cases: common ICD-10-CM diagnoses, no licensed code set needed.
const DEMO_CODES = ["J06.9", "I10", "E11.9", "M54.5", "K21.9", "F41.1", "N39.0"];
// The coding page's reason codes (app/services/coding/reject-reasons.ts).
const DEMO_REJECT_REASONS = ["not_documented", "not_addressed", "wrong_code"];

/**
 * A coding case (issue 13) for each generated signed note: the last days' partly open, the rest
 * coded, most of those exported. Two engine suggestions each, decided like a coder would: mostly
 * accepted, some edited, some rejected with a reason — the coding quality telemetry's input.
 */
async function generateCoding(db: Database, o: ActivityOptions): Promise<number> {
  const now = o.now.toISOString();
  const { rows } = await sql<{ n: number }>`
    with src as (
      select n.id as note_id, n.visit_id, n.patient_id, n.signed_at, n.signed_by, abs(hashtext('c' || n.id::text)) as h
      from public.notes n
      where n.org_id = ${o.orgId}::uuid and n.status = 'signed' and n.template_id = 'builtin:soap' and n.signed_at is not null
        and not exists (select 1 from public.coding_cases c where c.org_id = n.org_id and c.visit_id = n.visit_id)
    ), decided as (
      select src.*,
        case when signed_at > ${now}::timestamptz - interval '3 days' and h % 3 = 0 then 'open'
             when h % 4 = 0 then 'coded' else 'exported' end as status,
        least(signed_at + make_interval(secs => 600 + h % 7200), ${now}::timestamptz) as coded_at
      from src
    ), ins as (
      insert into public.coding_cases (org_id, visit_id, note_id, patient_id, status, engine, note_version, created_by,
                                       created_at, updated_at, coded_at, coded_by, exported_at, exported_by)
      select ${o.orgId}::uuid, visit_id, note_id, patient_id, status, 'demo', 1, signed_by,
        signed_at, signed_at,
        case when status <> 'open' then coded_at end, case when status <> 'open' then signed_by end,
        case when status = 'exported' then least(coded_at + make_interval(secs => 3600 + h % 86400), ${now}::timestamptz) end,
        case when status = 'exported' then signed_by end
      from decided
      returning id, status
    )
    select count(*)::int as n from ins`.execute(db.kysely);
  await sql`analyze public.coding_cases`.execute(db.kysely);
  const codes = `{${DEMO_CODES.join(",")}}`;
  const reasons = `{${DEMO_REJECT_REASONS.map((r) => `"${r}"`).join(",")}}`;
  await sql`
    with c as (
      select c.id, c.status, c.coded_at, c.coded_by, abs(hashtext('l' || c.id::text)) as h
      from public.coding_cases c
      where c.org_id = ${o.orgId}::uuid and c.engine = 'demo'
        and not exists (select 1 from public.coding_lines l where l.org_id = c.org_id and l.case_id = c.id)
    ), lines as (
      select c.*, pos, (${codes}::text[])[1 + (h + pos) % ${DEMO_CODES.length}::int] as code,
        case when c.status = 'open' then 'suggested'
             when pos = 1 and h % 5 = 0 then 'rejected' else 'accepted' end as state
      from c cross join generate_series(0, 1) pos
    )
    insert into public.coding_lines (org_id, case_id, position, kind, system, code, description, state, origin,
                                     suggested_code, reject_reason, confidence, decided_by, decided_at)
    select ${o.orgId}::uuid, id, pos, 'diagnosis', 'icd10cm', code, 'Demo diagnosis ' || code, state, 'engine',
      case when state = 'accepted' and pos = 0 and h % 7 = 0 then 'R69' end,
      case when state = 'rejected' then (${reasons}::text[])[1 + (h / 5) % ${DEMO_REJECT_REASONS.length}::int] end,
      0.5 + (h % 50) / 100.0,
      case when state <> 'suggested' then coded_by end, case when state <> 'suggested' then coded_at end
    from lines`.execute(db.kysely);
  return rows[0]?.n ?? 0;
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
      return `${made.visits} generated visits, ${made.notes} notes and ${made.codingCases} coding cases over 28 days`;
    },
  };
}
