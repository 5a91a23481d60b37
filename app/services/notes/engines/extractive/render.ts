import type { NoteDraft, NoteTemplate } from "../../model.ts";
import { headerModes, noteBlocks } from "../../render.ts";

/** A draft as plain text, titles shown per each section's header mode (always / with content / never). */
export function renderNoteText(template: NoteTemplate, draft: NoteDraft): string {
  return noteBlocks(draft.sections, headerModes(template))
    .map((b) => [b.title, b.text].filter(Boolean).join("\n\n"))
    .join("\n\n");
}
