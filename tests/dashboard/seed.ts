import { sql } from "kysely";
import type { Database } from "#app/db/database.server.ts";

// Rows for dashboard tests, planted at chosen instants through the owner connection (the app
// writes its times with the database's clock, which no test can pin).

export async function seedPatient(db: Database, orgId: string, name = "Dashboard patient"): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into public.patients (org_id, display_name) values (${orgId}, ${name}) returning id`.execute(db.kysely);
  const id = rows[0]?.id;
  if (!id) throw new Error("patient not created");
  return id;
}

export interface PlantedVisit {
  clinician: string | null;
  createdAt: string;
  status: "draft" | "recording" | "uploaded" | "transcribing" | "transcribed" | "failed";
  audioMs?: number;
  uploadedAt?: string;
  /** Counts toward the plan's visits this month. */
  recordingStarted?: boolean;
  note?: {
    status: "draft" | "signed";
    generatedAt: string;
    signedAt?: string;
    rating?: number;
    /** The draft's sections and, signed, the signed text of each with its stored edit distance. */
    sections?: { key: string; draft: string; signed: string; distance: number }[];
  };
}

export async function plantVisit(db: Database, orgId: string, patientId: string, v: PlantedVisit): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into public.visits (org_id, patient_id, clinician_id, language, consent_at, status, audio_duration_ms,
                               uploaded_at, recording_started_at, created_at, updated_at)
    values (${orgId}, ${patientId}, ${v.clinician}, 'en', ${v.createdAt}::timestamptz, ${v.status}, ${v.audioMs ?? null},
            ${v.uploadedAt ?? null}::timestamptz, ${v.recordingStarted ? v.createdAt : null}::timestamptz,
            ${v.createdAt}::timestamptz, ${v.createdAt}::timestamptz)
    returning id`.execute(db.kysely);
  const visitId = rows[0]?.id;
  if (!visitId) throw new Error("visit not created");
  if (v.note) {
    const sections = v.note.sections ?? [];
    const draft = JSON.stringify(sections.map((s) => ({ key: s.key, title: s.key, text: s.draft, sentences: [] })));
    const signed = JSON.stringify(sections.map((s) => ({ key: s.key, title: s.key, text: s.signed, sentences: [] })));
    const { rows: notes } = await sql<{ id: string }>`
      insert into public.notes (org_id, visit_id, patient_id, template_id, template, language, status, sections, content,
                                rating, generated_at, signed_at, signed_by, created_by, created_at)
      values (${orgId}, ${visitId}, ${patientId}, 'builtin:soap', '{}'::jsonb, 'en', ${v.note.status}, ${draft}::jsonb,
              ${v.note.status === "signed" ? signed : draft}::jsonb, ${v.note.rating ?? null},
              ${v.note.generatedAt}::timestamptz, ${v.note.signedAt ?? null}::timestamptz,
              ${v.note.signedAt ? v.clinician : null}, ${v.clinician}, ${v.note.generatedAt}::timestamptz)
      returning id`.execute(db.kysely);
    if (v.note.status === "signed" && sections.length > 0) {
      const distances = JSON.stringify(Object.fromEntries(sections.map((s) => [s.key, s.distance])));
      await sql`insert into public.note_versions (org_id, note_id, version, kind, sections, content_sha256, author_id, edit_distance)
                values (${orgId}, ${notes[0]?.id}, 2, 'signed', ${signed}::jsonb, ${"0".repeat(64)}, ${v.clinician},
                        ${distances}::jsonb)`.execute(db.kysely);
    }
  }
  return visitId;
}

export interface PlantedCodingCase {
  status: "open" | "coded" | "exported";
  createdAt: string;
  codedAt?: string;
  exportedAt?: string;
  reopenedAt?: string;
  /** Lines: engine suggestions (accepted, edited to another code, rejected with a reason) or added by hand. */
  lines?: { state: "suggested" | "accepted" | "rejected"; origin?: "engine" | "manual"; editedFrom?: string; reason?: string }[];
}

/** A coding case (issue 13) on a visit's latest note, with its lines, at chosen instants. */
export async function plantCodingCase(db: Database, orgId: string, visitId: string, c: PlantedCodingCase): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into public.coding_cases (org_id, visit_id, note_id, patient_id, status, engine, created_at, updated_at,
                                     coded_at, exported_at, reopened_at)
    select n.org_id, n.visit_id, n.id, n.patient_id, ${c.status}, 'test', ${c.createdAt}::timestamptz,
      ${c.createdAt}::timestamptz, ${c.codedAt ?? null}::timestamptz, ${c.exportedAt ?? null}::timestamptz,
      ${c.reopenedAt ?? null}::timestamptz
    from public.notes n where n.org_id = ${orgId} and n.visit_id = ${visitId}
    order by n.created_at desc limit 1
    returning id`.execute(db.kysely);
  const caseId = rows[0]?.id;
  if (!caseId) throw new Error("coding case not created: the visit has no note");
  const codes = ["J06.9", "I10", "E11.9", "M54.5", "K21.9", "F41.1"];
  for (const [i, line] of (c.lines ?? []).entries()) {
    await sql`
      insert into public.coding_lines (org_id, case_id, position, kind, system, code, description, state, origin,
                                       suggested_code, reject_reason)
      values (${orgId}, ${caseId}, ${i}, 'diagnosis', 'icd10cm', ${codes[i]}, 'Test diagnosis', ${line.state},
              ${line.origin ?? "engine"}, ${line.editedFrom ?? null}, ${line.reason ?? null})`.execute(db.kysely);
  }
  return caseId;
}
