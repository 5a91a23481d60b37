import type { NoteTemplate, TemplateSection } from "../model.ts";

// The editor's live preview: what a note from this template looks like before anything is
// filled — headers by mode, fixed text verbatim, placeholders as "[blood pressure]". Instructions
// are for the generator and never appear. Isomorphic, so the preview follows every keystroke.

export interface PreviewSection {
  key: string;
  /** null when the header mode hides it. */
  title: string | null;
  style: TemplateSection["style"];
  /** Lines of the section: fixed text paragraphs, then placeholders. */
  lines: { text: string; source: "fixed" | "placeholder" }[];
  /** Nothing fixed and nothing to fill: the visit alone decides what goes here. */
  fromVisit: boolean;
}

export function placeholderLabel(placeholder: string): string {
  return `[${placeholder.trim()}]`;
}

export function previewSections(template: Pick<NoteTemplate, "sections">): PreviewSection[] {
  return template.sections.map((section) => {
    const fixed = (section.fixedText ?? "")
      .split(/\n+/)
      .map((line) => line.trim())
      .filter(Boolean)
      .map((text) => ({ text, source: "fixed" as const }));
    const placeholders = (section.placeholders ?? [])
      .filter((p) => p.trim())
      .map((p) => ({ text: placeholderLabel(p), source: "placeholder" as const }));
    const lines = [...fixed, ...placeholders];
    return {
      key: section.key,
      // In a real note "with_content" hides an empty section's header; the preview shows every
      // section so the structure stays visible, and "never" is the only mode that hides a title.
      title: section.header === "never" ? null : section.title,
      style: section.style,
      lines,
      fromVisit: lines.length === 0,
    };
  });
}
