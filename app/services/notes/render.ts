import type { HeaderMode } from "./model.ts";

export interface NoteBlock {
  key: string;
  /** Null when the section's header mode hides it. */
  title: string | null;
  text: string;
}

/**
 * The note as it reads outside the editor (copy, print, PDF, previews): each section's title shown
 * per its template header mode — always, only with content (the default), or never — and sections
 * with neither title nor text left out.
 */
export function noteBlocks(
  sections: readonly { key: string; title: string; text: string }[],
  headers: Readonly<Record<string, HeaderMode>>,
): NoteBlock[] {
  const blocks: NoteBlock[] = [];
  for (const section of sections) {
    const text = section.text.trim();
    const mode = headers[section.key] ?? "with_content";
    const title = mode === "always" || (mode === "with_content" && text !== "") ? section.title : null;
    if (title || text) blocks.push({ key: section.key, title, text });
  }
  return blocks;
}

export function noteText(
  sections: readonly { key: string; title: string; text: string }[],
  headers: Readonly<Record<string, HeaderMode>>,
): string {
  return noteBlocks(sections, headers)
    .map((b) => [b.title, b.text].filter(Boolean).join("\n"))
    .join("\n\n");
}

/** Header modes by section key, from a template (or a note's template snapshot). */
export function headerModes(template: { sections: readonly { key: string; header: HeaderMode }[] }): Record<string, HeaderMode> {
  return Object.fromEntries(template.sections.map((s) => [s.key, s.header]));
}
