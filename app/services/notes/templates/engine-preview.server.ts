import { generateExtractive } from "../engines/extractive/index.ts";
import type { NoteLanguage } from "../model.ts";
import { templateErrors } from "./errors.server.ts";
import { sampleTranscript } from "./sample-transcript.ts";
import { normalizeSections, TemplateContentSchema, validateTemplate } from "./template-schema.ts";

export interface EnginePreviewSection {
  key: string;
  title: string;
  text: string;
  /** The section's header mode decides whether the title shows in the note. */
  header: "always" | "with_content" | "never";
}

/**
 * The editor's "Preview with sample visit": the unsaved template run by the embedded extractive
 * engine on the bundled sample transcript in the template's language. No database, no audit:
 * nothing is stored, and the engine is deterministic and offline.
 */
export function previewWithSampleVisit(content: unknown): { language: NoteLanguage; sections: EnginePreviewSection[] } {
  const checked = validateTemplate(TemplateContentSchema, content);
  if (!checked.ok) throw templateErrors.invalid(checked.code, checked.path, checked.message);
  const template = { ...checked.value, id: "preview", sections: normalizeSections(checked.value.sections) };
  const language = template.language;
  const draft = generateExtractive({ template, transcript: sampleTranscript(language), language });
  return {
    language,
    sections: template.sections.map((section) => ({
      key: section.key,
      title: section.title,
      header: section.header,
      text: draft.sections.find((s) => s.key === section.key)?.text ?? "",
    })),
  };
}
