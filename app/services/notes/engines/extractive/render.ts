import type { NoteDraft, NoteTemplate } from "../../model.ts";

/** A draft as plain text, titles shown per each section's header mode (always / with content / never). */
export function renderNoteText(template: NoteTemplate, draft: NoteDraft): string {
  const modes = new Map(template.sections.map((s) => [s.key, s.header]));
  const blocks: string[] = [];
  for (const section of draft.sections) {
    const mode = modes.get(section.key) ?? "with_content";
    const showTitle = mode === "always" || (mode === "with_content" && section.text.trim() !== "");
    const parts = [showTitle ? section.title : "", section.text.trim()].filter(Boolean);
    if (parts.length > 0) blocks.push(parts.join("\n\n"));
  }
  return blocks.join("\n\n");
}
