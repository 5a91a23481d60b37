import { isMainThread, threadId } from "node:worker_threads";
import { embeddedEngine } from "#app/services/coding/engines/embedded/index.ts";
import type { SuggestInput, Suggestion } from "#app/services/coding/model.ts";
import { editDistance } from "#app/services/notes/edit-distance.ts";
import { generateExtractive } from "#app/services/notes/engines/extractive/engine.ts";
import type { NoteDraft, NoteEngineInput, NoteLanguage, NoteSectionDraft, TranscriptPiece } from "#app/services/notes/model.ts";
import { findOmissions } from "#app/services/notes/omissions.ts";
import { type PdfNote, renderNotePdf } from "#app/services/notes/pdf/pdf-document.server.ts";
import { defaultBaseVocabulary } from "#app/services/speech/org-vocab/base-vocabulary.server.ts";
import { selectTerms, type TermSources, type VocabularyTerm } from "#app/services/speech/org-vocab/terms.ts";

// The CPU-heavy tasks the web process hands to its worker threads (ADR 0037). Plain data in and
// out (structured clone): no database, no logger, no functions. Each runs the same code the
// process used to run inline, so results are unchanged.

/** Per-section edit distances: `[key, draft, signed]` → `{ key: distance }`. */
export function editDistances(pairs: readonly (readonly [string, string, string])[]): Record<string, number> {
  return Object.fromEntries(pairs.map(([key, a, b]) => [key, editDistance(a, b)]));
}

/** The embedded coding engine (its ICD-10-CM indexes are built once per thread). */
export function codingSuggest(input: SuggestInput): Promise<Suggestion[]> {
  return embeddedEngine().suggest(input);
}

/** The extractive note engine, without the in-process callbacks (progress, abort) a thread cannot take. */
export function extractiveDraft(input: Omit<NoteEngineInput, "signal" | "onProgress">): NoteDraft {
  return generateExtractive(input);
}

export function noteOmissions(input: { pieces: TranscriptPiece[]; sections: NoteSectionDraft[]; language: NoteLanguage }) {
  return findOmissions(input.pieces, input.sections, input.language);
}

/** The note's PDF; `pageLabel` is the translated "Page {{n}} of {{m}}" template. */
export function notePdf(input: Omit<PdfNote, "pageLabel"> & { pageLabel: string }): Promise<Uint8Array> {
  const template = input.pageLabel;
  return renderNotePdf({
    ...input,
    pageLabel: (n, m) => template.replace("{{n}}", String(n)).replace("{{m}}", String(m)),
  });
}

/**
 * The organisation vocabulary's term selection over its signed notes (ADR 0032), with whether the
 * base model knows each word. The base vocabulary (3 s to parse) is loaded once per thread.
 */
export async function vocabularyTerms(sources: TermSources): Promise<{ term: VocabularyTerm; known: boolean }[]> {
  const base = await defaultBaseVocabulary();
  return selectTerms(sources, base).map((term) => ({ term, known: base.has(term.word) }));
}

/** Where a task ran: the tests prove the pool is a real worker thread, not an inline fallback. */
export function whereAmI(): { isMainThread: boolean; threadId: number } {
  return { isMainThread, threadId };
}

/** A busy loop for the tests and the benchmark: holds the thread, never the caller's event loop. */
export function spin(ms: number): number {
  const end = performance.now() + Math.min(ms, 10_000);
  let n = 0;
  while (performance.now() < end) n += 1;
  return n;
}
