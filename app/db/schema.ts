import type { ColumnType, Generated } from "kysely";
import type { SpeakerRole } from "#app/services/speech/diarise/speaker.ts";

/**
 * Kysely's view of the tables. Each migration that adds a table adds its interface here.
 * Only tables read through Kysely need to appear.
 */
export interface DB {
  schema_migrations: { name: string; applied_at: Date };
  organizations: OrganizationsTable;
  org_members: OrgMembersTable;
  invitations: InvitationsTable;
  audit_log: AuditLogTable;
  billing_events: BillingEventsTable;
  patients: PatientsTable;
  visits: VisitsTable;
  visit_audio_chunks: VisitAudioChunksTable;
  transcriptions: TranscriptionsTable;
  transcription_window_cache: TranscriptionWindowCacheTable;
  note_templates: NoteTemplatesTable;
  notes: NotesTable;
  note_versions: NoteVersionsTable;
  note_checks: NoteChecksTable;
  record_chunks: RecordChunksTable;
  record_embeddings: RecordEmbeddingsTable;
  rag_embedding_runs: RagEmbeddingRunsTable;
  help: HelpTable;
  perio_exams: PerioExamsTable;
  coding_cases: CodingCasesTable;
  coding_lines: CodingLinesTable;
  org_code_systems: OrgCodeSystemsTable;
  org_codes: OrgCodesTable;
  org_vocabulary: OrgVocabularyTable;
}

/** A column the database fills in on insert (default) and that may be set explicitly. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** Written once on insert, never updated. */
type InsertOnly<T> = ColumnType<T, T, never>;

// ---- 0003_organizations.sql (SPEC §3, issue 4) ----

export const ORG_KINDS = ["personal", "practice"] as const;
export type OrgKind = (typeof ORG_KINDS)[number];
/** SPEC §3: `Clinic` is the special plan value, spelled with its capital. */
export const ORG_PLANS = ["trial", "solo", "practice", "Clinic"] as const;
export type OrgPlan = (typeof ORG_PLANS)[number];
/** SPEC §3: `macpractice` is the special PMS value. */
export const ORG_PMS = ["none", "macpractice", "opendental", "dentrix", "eaglesoft", "other"] as const;
export type OrgPms = (typeof ORG_PMS)[number];
export const ORG_ROLES = ["owner", "admin", "clinician", "staff"] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** Rows are created by ensure_personal_org() / create_organization() only (no INSERT for murmur_app). */
export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  slug: string;
  kind: InsertOnly<OrgKind>;
  plan: Defaulted<OrgPlan>;
  pms: Defaulted<OrgPms>;
  created_by: InsertOnly<string | null>;
  timezone: Defaulted<string>;
  region: Defaulted<string>;
  trial_ends_at: Date | null;
  settings: Defaulted<Record<string, unknown>>;
  /** 0020: the practice's accent colour, #rrggbb; null is Murmur's own. */
  accent_color: Defaulted<string | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, never>;
}

export interface OrgMembersTable {
  org_id: string;
  user_id: string;
  role: OrgRole;
  created_at: ColumnType<Date, never, never>;
}

export interface InvitationsTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  email: string;
  role: OrgRole;
  token_hash: string;
  expires_at: Defaulted<Date>;
  accepted_at: Date | null;
  accepted_by: string | null;
  revoked_at: Date | null;
  invited_by: string | null;
  created_at: ColumnType<Date, never, never>;
}

/** Append-only: murmur_app may only SELECT and INSERT; a trigger rejects UPDATE/DELETE for everyone. */
export interface AuditLogTable {
  id: ColumnType<string, never, never>;
  org_id: InsertOnly<string>;
  actor_id: InsertOnly<string | null>;
  action: InsertOnly<string>;
  entity: InsertOnly<string | null>;
  entity_id: InsertOnly<string | null>;
  at: ColumnType<Date, Date | undefined, never>;
  ip: InsertOnly<string | null>;
  user_agent: InsertOnly<string | null>;
  details: ColumnType<Record<string, unknown>, Record<string, unknown> | undefined, never>;
}

// ---- 0006_billing.sql (issue 4 "Plans and trial") ----

export const BILLING_EVENT_PROVIDERS = ["stripe"] as const;
export type BillingEventProvider = (typeof BILLING_EVENT_PROVIDERS)[number];

/** Append-only for murmur_app (SELECT for owners/admins, INSERT for owners); webhooks write as the owner connection. */
export interface BillingEventsTable {
  provider: InsertOnly<BillingEventProvider>;
  /** The provider's id of what was processed: a webhook event (`evt_…`) or an applied checkout (`cs_…`). */
  external_id: InsertOnly<string>;
  org_id: InsertOnly<string>;
  type: InsertOnly<string>;
  received_at: ColumnType<Date, Date | undefined, never>;
  details: ColumnType<Record<string, unknown>, Record<string, unknown> | undefined, never>;
}

// ---- 0007_patients_visits.sql (issue 5 "Patients and visits") ----

export const PATIENT_SEXES = ["female", "male", "other", "unknown"] as const;
export type PatientSex = (typeof PATIENT_SEXES)[number];
/** Issue 5: a visit is recorded and transcribed in English, French or Spanish. */
export const VISIT_LANGUAGES = ["en", "fr", "es"] as const;
export type VisitLanguage = (typeof VISIT_LANGUAGES)[number];
/** Issue 5: draft → recording → uploaded → transcribing → transcribed | failed. */
export const VISIT_STATUSES = ["draft", "recording", "uploaded", "transcribing", "transcribed", "failed"] as const;
export type VisitStatus = (typeof VISIT_STATUSES)[number];
export const VISIT_AUDIO_SOURCES = ["chunks", "file"] as const;
export type VisitAudioSource = (typeof VISIT_AUDIO_SOURCES)[number];
export const TRANSCRIPTION_SOURCES = ["engine", "import", "edit"] as const;
export type TranscriptionSource = (typeof TRANSCRIPTION_SOURCES)[number];
export const TRANSCRIPTION_STATUSES = ["partial", "completed"] as const;
export type TranscriptionStatus = (typeof TRANSCRIPTION_STATUSES)[number];

/** Times in seconds from the start of the visit's audio. */
export interface TranscriptSegmentRow {
  start: number;
  end: number;
  text: string;
  /** Issue 15: the engine's 0–1 confidence per word of `text` (speech/confidence.ts), when it gives one. */
  confidence?: number[];
  /** Issue 26: who said it (speech/diarise); absent or null when not known. */
  speaker?: SpeakerRole | null;
  /** Issue 26: a person set `speaker` by hand; a re-run keeps it. */
  speaker_edited?: true;
}

export interface PatientsTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  display_name: string;
  /** `date` columns come back as Date from pg; written as YYYY-MM-DD. */
  date_of_birth: ColumnType<Date | string | null, string | null | undefined, string | null>;
  sex: PatientSex | null;
  external_id: string | null;
  notes: Defaulted<string>;
  created_by: InsertOnly<string | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, never>;
}

/** int8 columns come back from pg as strings. */
type BigIntColumn = ColumnType<string | number, number | undefined, number>;
type NullableBigIntColumn = ColumnType<string | number | null, number | null | undefined, number | null>;

export interface VisitsTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  patient_id: string;
  clinician_id: string | null;
  title: Defaulted<string>;
  language: VisitLanguage;
  consent_by: InsertOnly<string | null>;
  consent_at: InsertOnly<Date>;
  status: Defaulted<VisitStatus>;
  failure_code: ColumnType<string | null, string | null | undefined, string | null>;
  failure_reason: ColumnType<string | null, string | null | undefined, string | null>;
  audio_source: ColumnType<VisitAudioSource | null, VisitAudioSource | null | undefined, VisitAudioSource | null>;
  audio_chunk_count: Defaulted<number>;
  audio_bytes: BigIntColumn;
  audio_duration_ms: NullableBigIntColumn;
  audio_sha256: ColumnType<string | null, string | null | undefined, string | null>;
  audio_key: ColumnType<string | null, string | null | undefined, string | null>;
  audio_content_type: ColumnType<string | null, string | null | undefined, string | null>;
  audio_manifest: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  recording_started_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  uploaded_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  transcribed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_by: InsertOnly<string | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, never>;
  /** 0008: the running job's fraction done (0–1), null when no transcription runs. */
  transcription_progress: ColumnType<number | null, number | null | undefined, number | null>;
  /** 0008: bumped by each re-run request; the job keys idempotency on (audio SHA-256, round). */
  transcription_round: ColumnType<number, number | undefined, number>;
  /** 0009: when the retention purge deleted the audio. */
  audio_purged_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** 0017: the clinical day (YYYY-MM-DD); defaults to the creation day in the organisation's zone. */
  visit_date: ColumnType<Date | string, string | undefined, string>;
  /** 0060: the template the note is auto-drafted with (issue 29); null = the built-in SOAP note. */
  note_template_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Written once per acknowledged chunk; removed only with its visit. */
export interface VisitAudioChunksTable {
  org_id: InsertOnly<string>;
  visit_id: InsertOnly<string>;
  seq: InsertOnly<number>;
  sha256: InsertOnly<string>;
  bytes: InsertOnly<number>;
  storage_key: InsertOnly<string>;
  received_at: ColumnType<Date, Date | undefined, never>;
}

/** Immutable versions: murmur_app may only SELECT and INSERT. */
export interface TranscriptionsTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  visit_id: InsertOnly<string>;
  version: InsertOnly<number>;
  source: InsertOnly<TranscriptionSource>;
  engine: InsertOnly<string>;
  model: InsertOnly<string | null>;
  language: InsertOnly<VisitLanguage>;
  text: InsertOnly<string>;
  /** Written as a JSON string (cast to jsonb in the query), read back parsed. */
  segments: ColumnType<TranscriptSegmentRow[], string, never>;
  status: ColumnType<TranscriptionStatus, TranscriptionStatus | undefined, never>;
  audio_sha256: InsertOnly<string | null>;
  created_by: InsertOnly<string | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** 0008: the re-run round this version belongs to. */
  transcription_round: ColumnType<number, number | undefined, never>;
}

// ---- 0011_note_templates.sql (issue 6 "Templates") ----

/** owner_user_id null = an organisation template; else one member's personal template. */
export interface NoteTemplatesTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  owner_user_id: InsertOnly<string | null>;
  name: string;
  language: "en" | "fr" | "es";
  description: Defaulted<string>;
  /** TemplateSection[]: written as a JSON string (cast to jsonb in the query), read back parsed. */
  sections: ColumnType<unknown[], string, string>;
  based_on: InsertOnly<string | null>;
  created_by: InsertOnly<string | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: Defaulted<Date>;
  archived_at: Date | null;
}

// ---- 0012_notes.sql (issue 6 "Generation", "The note editor") ----

export const NOTE_STATUSES = ["generating", "draft", "failed", "signed", "amended"] as const;
export type NoteStatus = (typeof NOTE_STATUSES)[number];
export const NOTE_VERSION_KINDS = ["draft_edit", "signed", "amendment"] as const;
export type NoteVersionKind = (typeof NOTE_VERSION_KINDS)[number];

/** jsonb written as a JSON string (cast in the query), read back parsed. */
type JsonColumn<T> = ColumnType<T, string | undefined, string>;

export interface NotesTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  visit_id: InsertOnly<string>;
  patient_id: InsertOnly<string>;
  template_id: string;
  /** NoteTemplate snapshot. */
  template: JsonColumn<unknown>;
  language: VisitLanguage;
  status: Defaulted<NoteStatus>;
  engine: ColumnType<string | null, string | null | undefined, string | null>;
  model: ColumnType<string | null, string | null | undefined, string | null>;
  /** NoteSectionDraft[] as generated. */
  sections: JsonColumn<unknown[]>;
  /** NoteSectionDraft[]: the current text. */
  content: JsonColumn<unknown[]>;
  /** Omission[]. */
  omissions: JsonColumn<unknown[]>;
  progress: ColumnType<number | null, number | null | undefined, number | null>;
  generation: Defaulted<number>;
  pending_sections: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  failure_code: ColumnType<string | null, string | null | undefined, string | null>;
  failure_reason: ColumnType<string | null, string | null | undefined, string | null>;
  rating: ColumnType<number | null, number | null | undefined, number | null>;
  rating_comment: ColumnType<string | null, string | null | undefined, string | null>;
  generated_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  signed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  signed_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: InsertOnly<string | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, never>;
  /** Raised by a trigger (0042) on every change of the text or status: the save's concurrency check. */
  version: ColumnType<number, never, never>;
}

/** Immutable: murmur_app may only SELECT and INSERT; signed and amendment rows outlive every role. */
export interface NoteVersionsTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  note_id: InsertOnly<string>;
  version: InsertOnly<number>;
  kind: InsertOnly<NoteVersionKind>;
  sections: ColumnType<unknown[], string, never>;
  content_sha256: InsertOnly<string>;
  author_id: InsertOnly<string | null>;
  amendment_reason: InsertOnly<string | null>;
  edit_distance: ColumnType<Record<string, number> | null, string | null | undefined, never>;
  /** 0050: on signed and amendment versions, the note's checks (NoteCheck[]) as they stood then. */
  checks: ColumnType<unknown[] | null, string | null | undefined, never>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

// ---- 0050_note_checks.sql (issue 27 "Safe to sign") ----

export const NOTE_CHECK_KINDS = ["low_confidence", "contradiction", "unsupported", "omission"] as const;
export type NoteCheckKind = (typeof NOTE_CHECK_KINDS)[number];
export type NoteCheckStatus = "open" | "resolved" | "acknowledged";

export interface NoteChecksTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  note_id: InsertOnly<string>;
  key: InsertOnly<string>;
  kind: InsertOnly<NoteCheckKind>;
  code: Defaulted<string>;
  section: ColumnType<string | null, string | null | undefined, string | null>;
  sentence: ColumnType<string | null, string | null | undefined, string | null>;
  text: string;
  status: Defaulted<NoteCheckStatus>;
  reason: ColumnType<string | null, string | null | undefined, string | null>;
  resolved_by: ColumnType<string | null, string | null | undefined, string | null>;
  resolved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, never>;
}

/** 0010: windows decoded while recording (jobs only; members may read). */
export interface TranscriptionWindowCacheTable {
  org_id: InsertOnly<string>;
  visit_id: InsertOnly<string>;
  cache_key: InsertOnly<string>;
  /** A CachedWindow (app/services/speech/window-cache.ts), written as a JSON string. */
  result: ColumnType<unknown, string, never>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

// ---- 0017_records_index.sql (issue 12 "Ask Murmur") ----

export const RECORD_TYPES = ["transcription", "doctor_note", "case"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
export const SOURCE_TABLES = ["transcriptions", "doctor_notes", "cases"] as const;
export type SourceTable = (typeof SOURCE_TABLES)[number];

/** Written only by the 0017 triggers; murmur_app reads what its role may (notes: owner, clinician). */
export interface RecordChunksTable {
  id: Generated<string>;
  org_id: string;
  visit_id: string;
  patient_id: string;
  record_type: RecordType;
  source_table: SourceTable;
  source_id: string;
  note_id: string | null;
  field: string;
  label: string;
  note_status: "draft" | "signed" | "amended" | null;
  position: number;
  start_s: number | null;
  end_s: number | null;
  language: VisitLanguage;
  visit_date: ColumnType<Date | string, string, string>;
  text: string;
  created_at: ColumnType<Date, never, never>;
}

// ---- 0026_rag_cases_and_embeddings.sql (issue 12, ADR 0020) ----

/** A passage's embedding; written by the re-embedding job (owner connection), read under 0017's rules. */
export interface RecordEmbeddingsTable {
  chunk_id: string;
  org_id: string;
  record_type: RecordType;
  model: string;
  dims: number;
  embedding: number[];
  created_at: ColumnType<Date, never, never>;
}

/** The re-embedding job's progress, one row per organisation; owners read it. */
export interface RagEmbeddingRunsTable {
  org_id: string;
  model: string;
  state: "queued" | "running" | "done" | "failed";
  done: Defaulted<number>;
  total: Defaulted<number>;
  error: string | null;
  started_at: Defaulted<Date>;
  updated_at: Defaulted<Date>;
}

/** Product-help articles, written by migrations; every signed-in member reads them. */
export interface HelpTable {
  id: string;
  slug: string;
  language: VisitLanguage;
  title: string;
  body: string;
  updated_at: ColumnType<Date, never, never>;
}

// ---- 0019_perio_exams.sql (issue 14) ----

export interface PerioExamsTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  patient_id: InsertOnly<string>;
  /** `date` comes back as Date from pg; written as YYYY-MM-DD. */
  exam_date: ColumnType<Date | string, string, string>;
  version: Defaulted<number>;
  /** PerioChartData (app/services/perio/model.ts). */
  data: JsonColumn<unknown>;
  risk: ColumnType<unknown, string | undefined, string>;
  confirmed: ColumnType<unknown, string | null | undefined, string | null>;
  confirmed_by: ColumnType<string | null, string | null | undefined, string | null>;
  confirmed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  copied_from: InsertOnly<string | null>;
  created_by: InsertOnly<string | null>;
  updated_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, never>;
}
// ---- 0018_coding.sql (issue 13 "Coding cases") ----

export const CODING_CASE_STATUSES = ["open", "coded", "exported"] as const;
export type CodingCaseStatus = (typeof CODING_CASE_STATUSES)[number];
export const CODING_LINE_STATES = ["suggested", "accepted", "rejected"] as const;
export type CodingLineState = (typeof CODING_LINE_STATES)[number];

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface CodingCasesTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  visit_id: InsertOnly<string>;
  note_id: InsertOnly<string>;
  patient_id: InsertOnly<string>;
  status: Defaulted<CodingCaseStatus>;
  engine: string;
  /** Suggestion[] (app/services/coding/model.ts). */
  suggestions: JsonColumn<unknown[]>;
  source_text: Defaulted<string>;
  note_version: Nullable<number>;
  reopened_at: Nullable<Date>;
  coded_at: Nullable<Date>;
  coded_by: Nullable<string>;
  exported_at: Nullable<Date>;
  exported_by: Nullable<string>;
  created_by: InsertOnly<string | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, never>;
}

export interface CodingLinesTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  case_id: InsertOnly<string>;
  position: number;
  kind: "diagnosis" | "procedure";
  system: "icd10cm" | "hcpcs" | "cpt" | "cdt";
  code: string;
  description: string;
  state: CodingLineState;
  origin: InsertOnly<"engine" | "manual">;
  suggested_code: Nullable<string>;
  reject_reason: Nullable<string>;
  confidence: Nullable<number>;
  /** Evidence[]. */
  evidence: JsonColumn<unknown[]>;
  rationale: Defaulted<string>;
  modifiers: Defaulted<string[]>;
  units: Defaulted<number>;
  pointers: Defaulted<number[]>;
  tooth: Nullable<string>;
  surfaces: Nullable<string>;
  decided_by: Nullable<string>;
  decided_at: Nullable<Date>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, never>;
}

/** Organisation-private, versioned CPT/CDT/HCPCS imports (0018_coding.sql). */
export interface OrgCodeSystemsTable {
  id: Generated<string>;
  org_id: InsertOnly<string>;
  system: InsertOnly<"cpt" | "cdt" | "hcpcs">;
  version: InsertOnly<string>;
  active: Defaulted<boolean>;
  row_count: InsertOnly<number>;
  file_sha256: InsertOnly<string>;
  imported_by: InsertOnly<string | null>;
  created_at: ColumnType<Date, never, never>;
}

export interface OrgCodesTable {
  org_id: InsertOnly<string>;
  code_system_id: InsertOnly<string>;
  code: InsertOnly<string>;
  short_descriptor: InsertOnly<string>;
  long_descriptor: InsertOnly<string>;
}

/** Migration 0035 (ADR 0032): one row per organisation; `terms`, `version`, `refreshed_at` are the refresh job's. */
export interface OrgVocabularyTable {
  org_id: InsertOnly<string>;
  custom_terms: Defaulted<string[]>;
  terms: Defaulted<unknown>;
  version: Defaulted<string>;
  refreshed_at: Defaulted<Date | null>;
  updated_by: Defaulted<string | null>;
  updated_at: Defaulted<Date>;
}
