import type { CodeSystem } from "./codes/table.ts";

export type EvidenceSource = "note" | "transcript" | "text";

export interface Evidence {
  source: EvidenceSource;
  /** UTF-16 offsets into the source text: text.slice(start, end) === quote. */
  start: number;
  end: number;
  quote: string;
}

/** A detail the code's title asks for that the text does not give (the clinician must add it). */
export type MissingDetail = "laterality" | "episode_of_care";

export interface Suggestion {
  system: CodeSystem;
  /** As shown: ICD-10-CM with its dot. Always a billable code of the system's table. */
  code: string;
  /** Always the table's official title, never the engine's wording. */
  description: string;
  confidence: number;
  /**
   * Whether the suggestion is among the few shown first (cutoff.ts, ADR 43): confidence at or above
   * the cut-off, or stated in the note's Assessment/Plan; at most 15 per system. The API always sets it.
   */
  above_cutoff?: boolean;
  evidence: Evidence[];
  rationale: string;
  /** Details to confirm; the code chosen is the one the text supports (unspecified side, initial encounter). */
  missing?: MissingDetail[];
  /** Codes among the suggestions this one has an Excludes1 note against (both cannot be coded together). */
  excludes1?: string[];
  /** Dental procedure lines (CDT): the tooth in Universal numbering ("1"–"32", "A"–"T") and surfaces (MODBLIF). */
  tooth?: string;
  surfaces?: string;
}

export interface SuggestInput {
  /** One or more texts (a note's sections, a transcript); evidence points into them by source. */
  sources: Array<{ source: EvidenceSource; text: string }>;
  language: "en" | "fr" | "es";
  systems: CodeSystem[];
  /**
   * false: confident suggestions only, without the embedded engine's low-confidence tail (what a
   * coding case shows; docs/coding.md "Embedded engine"). Default true: the whole ranked list.
   */
  tail?: boolean;
}

export interface SuggestionEngine {
  readonly id: string;
  suggest(input: SuggestInput, signal?: AbortSignal): Promise<Suggestion[]>;
}
