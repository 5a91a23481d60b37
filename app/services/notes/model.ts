// The shared vocabulary of issue 6 (templates, note engines, notes). Isomorphic: no server
// imports, so routes, components, engines and benches can all use it.

export const NOTE_LANGUAGES = ["en", "fr", "es"] as const;
export type NoteLanguage = (typeof NOTE_LANGUAGES)[number];

/** When a section's title appears in the note. */
export type HeaderMode = "always" | "with_content" | "never";
export type SectionStyle = "bullets" | "prose";
export type Verbosity = "concise" | "standard" | "detailed";
/**
 * How an assessment-and-plan section is laid out (issue 18): by problem ("1. Heart failure: …
 * Plan: …", the default) or the assessment first and the plan after it.
 */
export const AP_LAYOUTS = ["problems", "separate"] as const;
export type AssessmentPlanLayout = (typeof AP_LAYOUTS)[number];

/**
 * What a section is about, so an engine knows where a transcript sentence belongs whatever the
 * title says (and whatever its language). Custom sections use "other" and rely on their title
 * and instructions.
 */
export const SECTION_KINDS = [
  "chief_complaint",
  "hpi",
  "history",
  "medications",
  "allergies",
  "ros",
  "vitals",
  "exam",
  "results",
  "assessment",
  "plan",
  "assessment_plan",
  "dental_exam",
  "periodontal",
  "procedure",
  "referral",
  "patient_instructions",
  "other",
] as const;
export type SectionKind = (typeof SECTION_KINDS)[number];

export interface TemplateSection {
  /** Stable within its template: [a-z0-9_]{1,40}. Notes refer to sections by key. */
  key: string;
  title: string;
  kind: SectionKind;
  /** Copied verbatim into the note (e.g. a consent statement). */
  fixedText?: string;
  /** Things to fill, e.g. "blood pressure", "tooth number"; filled only from what was said. */
  placeholders?: string[];
  /** Guidance for the generator; never appears in the note. */
  instructions?: string;
  header: HeaderMode;
  style: SectionStyle;
  verbosity: Verbosity;
  /** Carried forward from the patient's last signed note when the visit says nothing new. */
  persistent: boolean;
  /** Assessment-and-plan sections only: by problem (default) or assessment then plan. */
  layout?: AssessmentPlanLayout;
}

export interface NoteTemplate {
  /** `builtin:<slug>` for the built-in library, a uuid for an organisation's or a member's own. */
  id: string;
  name: string;
  language: NoteLanguage;
  description?: string;
  sections: TemplateSection[];
}

/** One piece of transcript: a speaker turn or an ASR segment. Times in seconds of audio. */
export interface TranscriptPiece {
  start: number;
  end: number;
  text: string;
  /** "doctor" / "patient" / … when known (imported dialogues); ASR segments carry "clinician" / "patient" since issue 26. */
  speaker?: string;
  /** Per-word engine confidence (0–1, one per word of `text`) when the engine gave it (issue 15). */
  confidence?: number[];
}

/** Where a note sentence comes from in the transcript: audio time and the words said. */
export interface Evidence {
  start: number;
  end: number;
  quote: string;
}

/**
 * Where a note sentence read from a periodontal chart comes from (issue 14): the exam and, when the
 * sentence names them, the teeth (Universal numbers) and sites it reports. It is the chart's
 * counterpart of transcript Evidence: the editor links it to the chart instead of playing audio.
 */
export interface ChartEvidence {
  kind: "perio_exam";
  exam_id: string;
  patient_id: string;
  exam_date: string;
  /** Empty for whole-mouth figures (means, percentages). */
  sites: { tooth: number; site?: string }[];
}

/**
 * transcript: rests on evidence; template: fixed text; previous: carried from the last signed note;
 * clinician: typed by a person; chart: read from the visit's periodontal chart (see `chart`).
 */
export type SentenceSource = "transcript" | "template" | "previous" | "clinician" | "chart";

/** pronoun_conflict: the transcript's pronouns contradicted the patient record's sex; the record's were kept. */
export type NoteSentenceFlag = "pronoun_conflict";

export interface NoteSentence {
  text: string;
  evidence: Evidence[];
  /** False for a transcript sentence without evidence: the editor flags it "unsupported". */
  supported: boolean;
  source: SentenceSource;
  /** source "chart" only: the exam (and teeth/sites) the sentence was read from. */
  chart?: ChartEvidence;
  /** Things for the clinician to check (the editor shows them beside the sentence). */
  flags?: NoteSentenceFlag[];
}

export interface NoteSectionDraft {
  key: string;
  title: string;
  /** The section as it reads in the note (bullets as "- " lines, or prose); "" when empty. */
  text: string;
  sentences: NoteSentence[];
}

export type OmissionKind = "medication" | "number" | "vital" | "allergy" | "negation" | "plan" | "tooth";

/** A fact said in the visit that no note sentence carries. */
export interface Omission {
  kind: OmissionKind;
  text: string;
  evidence: Evidence[];
}

export interface NoteDraft {
  language: NoteLanguage;
  engine: string;
  model?: string;
  sections: NoteSectionDraft[];
}

export interface NoteContext {
  visitTitle?: string;
  patient?: { displayName?: string; sex?: string; ageYears?: number };
  /** Text of persistent sections (by key) from the patient's last signed note. */
  previous?: Record<string, string>;
}

export interface NoteEngineInput {
  template: NoteTemplate;
  transcript: TranscriptPiece[];
  /** The note's language: the visit's unless chosen. */
  language: NoteLanguage;
  context?: NoteContext;
  /** Regenerate only these section keys (the others are not returned). */
  onlySections?: string[];
  signal?: AbortSignal;
  /** Fraction of sections done (0–1). */
  onProgress?: (done: number) => void;
}

export interface NoteEngine {
  readonly id: string;
  generate(input: NoteEngineInput): Promise<NoteDraft>;
}
