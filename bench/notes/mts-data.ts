// MTS-Dialog read in place from the shared data folder (never copied into the repository): short
// dialogues, each paired with one section of a clinician's note.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { NoteTemplate, SectionKind } from "#app/services/notes/model.ts";
import { readCsvObjects, sharedDataDir } from "./aci-data.ts";
import type { RegisterSection } from "./register.ts";

export interface MtsRow {
  id: string;
  header: string;
  note: string;
  dialogue: string;
}

export type MtsSplit = "train" | "valid";

export function loadMtsSplit(split: MtsSplit): MtsRow[] {
  const shared = sharedDataDir();
  if (!shared) return [];
  const path = join(shared, "mts-dialog", split === "train" ? "MTS-Dialog-TrainingSet.csv" : "MTS-Dialog-ValidationSet.csv");
  if (!existsSync(path)) return [];
  return readCsvObjects(path).map((row) => ({
    id: row.ID ?? "",
    header: row.section_header ?? "",
    note: row.section_text ?? "",
    dialogue: row.dialogue ?? "",
  }));
}

/** The corpus's section label → the kind of the one-section template the engine writes, and the register table's row. */
export function mtsKind(header: string): { kind: SectionKind; register: RegisterSection } {
  switch (header) {
    case "CC":
      return { kind: "chief_complaint", register: "chief_complaint" };
    case "ROS":
      return { kind: "ros", register: "ros" };
    case "EXAM":
      return { kind: "exam", register: "exam" };
    case "LABS":
    case "IMAGING":
      return { kind: "results", register: "results" };
    case "ASSESSMENT":
    case "DIAGNOSIS":
      return { kind: "assessment", register: "assessment_plan" };
    case "PLAN":
    case "DISPOSITION":
      return { kind: "plan", register: "assessment_plan" };
    case "MEDICATIONS":
      return { kind: "medications", register: "hpi" };
    case "ALLERGY":
      return { kind: "allergies", register: "hpi" };
    case "PASTMEDICALHX":
    case "PASTSURGICAL":
    case "FAM/SOCHX":
    case "GYNHX":
    case "OTHER_HISTORY":
    case "IMMUNIZATIONS":
      return { kind: "history", register: "hpi" };
    case "PROCEDURES":
      return { kind: "procedure", register: "assessment_plan" };
    default:
      return { kind: "hpi", register: "hpi" };
  }
}

/** A one-section template for a row, written without its title (the reference is the section's text alone). */
export function mtsTemplate(header: string): NoteTemplate {
  return {
    id: "bench:mts",
    name: "MTS-Dialog section",
    language: "en",
    sections: [
      {
        key: "section",
        title: header,
        kind: mtsKind(header).kind,
        header: "never",
        style: "prose",
        verbosity: "standard",
        persistent: false,
      },
    ],
  };
}
