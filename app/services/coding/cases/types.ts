import type { Evidence, Suggestion } from "../model.ts";

// Shapes of the coding-case API shared by the services and the page (no server code here).

export interface CodingLineView {
  id: string;
  position: number;
  kind: "diagnosis" | "procedure";
  system: string;
  code: string;
  description: string;
  state: "suggested" | "accepted" | "rejected";
  origin: "engine" | "manual";
  suggested_code: string | null;
  reject_reason: string | null;
  confidence: number | null;
  evidence: Evidence[];
  rationale: string;
  modifiers: string[];
  units: number;
  pointers: number[];
  tooth: string | null;
  surfaces: string | null;
  decided_at: string | null;
}

export interface CodingCaseView {
  id: string;
  status: "open" | "coded" | "exported";
  visit_id: string;
  note_id: string;
  engine: string;
  note_version: number | null;
  source_text: string;
  reopened_at: string | null;
  coded_at: string | null;
  exported_at: string | null;
  created_at: string;
  suggestions: Suggestion[];
  lines: CodingLineView[];
}

export type LineOperation =
  | { op: "accept"; line_id: string }
  | { op: "reject"; line_id: string; reason: string }
  | { op: "edit"; line_id: string; code: string }
  | { op: "add"; system: "icd10cm" | "hcpcs" | "cpt" | "cdt"; code: string }
  | {
      op: "update";
      line_id: string;
      modifiers?: string[] | undefined;
      units?: number | undefined;
      pointers?: number[] | undefined;
      tooth?: string | null | undefined;
      surfaces?: string | null | undefined;
    };

export interface CasePatch {
  operations?: LineOperation[] | undefined;
  status?: "open" | "coded" | undefined;
}
