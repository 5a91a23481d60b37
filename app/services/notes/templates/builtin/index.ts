import type { NoteLanguage, NoteTemplate } from "../../model.ts";
import { type BuiltinTemplate, inLanguage } from "./define.ts";
import { dentalExam } from "./dental-exam.ts";
import { historyPhysical } from "./history-physical.ts";
import { patientInstructions } from "./patient-instructions.ts";
import { periodontalExam } from "./periodontal-exam.ts";
import { procedure } from "./procedure.ts";
import { progress } from "./progress.ts";
import { referral } from "./referral.ts";
import { soap } from "./soap.ts";

/** Issue 6's built-in library, in the order the template list shows it. Ids are stable API values. */
export const BUILTIN_TEMPLATES: readonly BuiltinTemplate[] = [
  soap,
  historyPhysical,
  progress,
  dentalExam,
  periodontalExam,
  procedure,
  referral,
  patientInstructions,
];

export const BUILTIN_TEMPLATE_IDS = BUILTIN_TEMPLATES.map((t) => t.id);

export function isBuiltinTemplateId(id: string): boolean {
  return id.startsWith("builtin:");
}

/** A built-in in one language (the same id and section keys in every language), or null for an unknown id. */
export function getBuiltinTemplate(id: string, language: NoteLanguage): NoteTemplate | null {
  const template = BUILTIN_TEMPLATES.find((t) => t.id === id);
  return template ? inLanguage(template, language) : null;
}

export function listBuiltinTemplates(language: NoteLanguage): NoteTemplate[] {
  return BUILTIN_TEMPLATES.map((t) => inLanguage(t, language));
}
