import type { NoteSectionDraft } from "#app/services/notes/model.ts";

/** The id of a draft sentence's button: its section's key and its place in the section (issue 27). */
export function sentenceAnchor(sectionKey: string, index: number): string {
  return `note-sentence-${sectionKey}-${index}`;
}

/**
 * Where a check's link goes: the sentence it is about (found by its text in its section), else its
 * section, else nowhere (an omission is about the transcript, not a sentence of the note).
 */
export function checkTarget(
  check: { section: string | null; sentence: string | null },
  sections: readonly Pick<NoteSectionDraft, "key" | "sentences">[],
): string | null {
  if (!check.section) return null;
  const section = sections.find((s) => s.key === check.section);
  if (!section) return null;
  const wanted = check.sentence?.trim();
  const index = wanted ? section.sentences.findIndex((s) => s.text.trim() === wanted) : -1;
  return index >= 0 ? sentenceAnchor(section.key, index) : `note-section-${section.key}`;
}
