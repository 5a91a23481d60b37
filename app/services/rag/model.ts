// The vocabulary of Ask Murmur (SPEC §3 "Citation", "Ask response", "Filters"; issue 12 API shapes).
// Isomorphic: routes, components, engines and the bench use it.

/** SPEC §9: at most this many characters in a question (issue 12: 1–2000). */
export const QUERY_MAX_CHARS = 2000;
/** How many passages an answer may rest on (the chat shows 6 chips, then '+N more'). */
export const ASK_TOP_K = 8;
export const SEARCH_LIMIT_MAX = 50;

export const ASK_RECORD_TYPES = ["transcription", "doctor_note", "case"] as const;
export type AskRecordType = (typeof ASK_RECORD_TYPES)[number];
export type AskScope = "records" | "help";
export type CitationTable = "transcriptions" | "doctor_notes" | "cases" | "help";

export interface AskFilters {
  record_types?: AskRecordType[];
  /** YYYY-MM-DD, on the visit's clinical date. */
  date_from?: string;
  date_to?: string;
}

export interface CitationSource {
  table: CitationTable;
  /** The visit id for a transcript (opens /transcribing?visit_id=), the note id for a note (/coding?id=). */
  id: string;
  field: string;
  visit_name: string;
  visit_id: string | null;
  patient_id: string | null;
  start?: number;
  end?: number;
}

export interface Citation {
  /** The passage's id, for GET /api/rag/source?id=. */
  id: string;
  title: string;
  snippet: string;
  created_at: string;
  content?: string;
  source: CitationSource;
}

export interface AskResponse {
  answer: string;
  citations: Citation[];
  usedFallback: boolean;
  /** Set when the help answer is the "not enough information" one: where to reach the team (SPEC §4). */
  support: { url: string } | null;
  /** Which store was asked (records or help), so the chat can add the help disclaimer. */
  scope: AskScope;
}

/** One ranked passage, as the ranking returns it and the answer engines read it. */
export interface RankedPassage {
  id: string;
  table: CitationTable;
  sourceId: string;
  field: string;
  label: string;
  noteStatus: "draft" | "signed" | "amended" | null;
  visitId: string | null;
  patientId: string | null;
  visitName: string;
  /** The visit's clinical day (records) or the article's update day (help), YYYY-MM-DD. */
  date: string;
  start: number | null;
  end: number | null;
  language: "en" | "fr" | "es";
  text: string;
  /** 0055's order of authority: 4 signed/amended note, 3 clinician-edited draft section, 2 generated draft, 1 transcript, 0 case. */
  authority: number;
  /** The patient's display name (records); the answer says it in place of "I". */
  patientName: string;
  /** A signed or amended note's signature time (ISO), null otherwise. */
  signedAt: string | null;
  /** The whole section a note passage belongs to, in order, when the question asked for that section. */
  section?: string[];
  score: number;
  features?: Record<string, number>;
}
