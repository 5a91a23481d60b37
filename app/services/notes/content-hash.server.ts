import { createHash } from "node:crypto";
import type { NoteSectionDraft } from "./model.ts";

/**
 * The canonical serialisation a version's SHA-256 covers: the note's language and its sections in
 * template order as `[key, title, text]` triples, JSON without whitespace, UTF-8. Evidence and
 * sentence boundaries are presentation, not content, so they are left out: anyone holding the
 * printed note's text can recompute the hash.
 */
export function canonicalNoteContent(
  language: string,
  sections: readonly Pick<NoteSectionDraft, "key" | "title" | "text">[],
): string {
  return JSON.stringify({ language, sections: sections.map((s) => [s.key, s.title, s.text]) });
}

export function noteContentHash(language: string, sections: readonly Pick<NoteSectionDraft, "key" | "title" | "text">[]): string {
  return createHash("sha256").update(canonicalNoteContent(language, sections), "utf8").digest("hex");
}
