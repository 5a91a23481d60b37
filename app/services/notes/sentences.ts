import type { NoteSectionDraft, NoteSentence } from "./model.ts";

// How a section's text is cut into sentences when a clinician edits it (PUT /api/notes/:id):
// bullets ("- …" lines) are one sentence each, prose is cut after . ! ? followed by a space.
// Isomorphic: the editor shows the same split the server stores.

const BULLET = /^\s*[-•*]\s+/;

/** The sentences of a section's text, without bullet markers, in order. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const body = line.replace(BULLET, "").trim();
    if (!body) continue;
    if (BULLET.test(line)) {
      out.push(body);
      continue;
    }
    // Lookbehind keeps the full stop with its sentence; "Dr. Smith"-style breaks only cost evidence.
    // A line's list number ("1. Heart failure: …", a problem of the assessment and plan) is not a sentence.
    for (const part of body.split(/(?<!^\d{1,2}\.)(?<=[.!?])\s+(?=\S)/)) {
      const sentence = part.trim();
      if (sentence) out.push(sentence);
    }
  }
  return out;
}

/** Compares sentences the way a reader would: case, spacing and a final full stop aside. */
export function sentenceKey(text: string): string {
  return text
    .normalize("NFC")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[\s.;,]+$/, "")
    .trim();
}

/**
 * A section after a clinician's edit: sentences whose text did not change keep their evidence and
 * source; the others are the clinician's own (source clinician, supported — a person wrote them).
 */
export function reviseSection(previous: NoteSectionDraft, text: string): NoteSectionDraft {
  const pool = new Map<string, NoteSentence[]>();
  for (const s of previous.sentences) {
    const key = sentenceKey(s.text);
    pool.set(key, [...(pool.get(key) ?? []), s]);
  }
  const normalized = text.replace(/\r\n/g, "\n").replace(/\s+$/, "");
  const sentences = splitSentences(normalized).map((sentence): NoteSentence => {
    const same = pool.get(sentenceKey(sentence));
    const kept = same?.shift();
    if (kept) return { ...kept, text: sentence };
    return { text: sentence, evidence: [], supported: true, source: "clinician" };
  });
  return { key: previous.key, title: previous.title, text: normalized, sentences };
}
