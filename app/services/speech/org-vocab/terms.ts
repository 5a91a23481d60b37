import { words } from "#app/services/speech/text-normalise.ts";

/**
 * Which of a practice's words the embedded engine should learn (issue 15 "Per-organisation
 * vocabulary", ADR 0032). Pure: the refresh job feeds it the organisation's texts and the base
 * model's vocabulary; nothing here reads a database or a file.
 */

export type TermSource = "custom" | "clinician" | "template" | "note";

export interface VocabularyTerm {
  /** As the decoder spells it: lower case, a–z and inner apostrophes only. */
  word: string;
  source: TermSource;
  /** ARPAbet phones when the base dictionary lacks the word (else the dictionary's own are used). */
  phones?: string[];
  /** Words seen right before it in the organisation's text, commonest first (bigram boosts). */
  before?: string[];
}

/** The base model's vocabulary: which words it has and how likely each is on its own (log10). */
export interface BaseVocabulary {
  has(word: string): boolean;
  unigram(word: string): number | undefined;
}

/**
 * A word the base LM already rates above this (log10 unigram, about 1 in 30 000 words) is
 * common enough to need no boost; below it, a drug or a surname the practice uses is drowned by
 * commoner sound-alikes. Chosen before any measurement, not tuned on the bench's sentences.
 */
export const RARE_UNIGRAM = -4.5;
/** Caps keep the adapted model small and its build quick whatever the practice writes. */
export const MAX_TERMS = 2000;
export const MAX_CONTEXTS = 4;
const MIN_LENGTH = 3;

/** "Núñez-O'Brien" → ["nunez", "o'brien"]: the decoder's spelling of each word of a text. */
export function spokenWords(text: string): string[] {
  const plain = text.normalize("NFD").replace(/\p{M}/gu, "");
  return words(plain).filter((w) => /^[a-z][a-z']*[a-z]$/.test(w) && w.length >= MIN_LENGTH);
}

const TITLES = new Set(["doctor", "dr", "mister", "missus", "miss", "prof", "professor", "nurse", "dra", "pr"]);

export interface TermSources {
  custom: readonly string[];
  clinicianNames: readonly string[];
  templateTexts: readonly string[];
  noteTexts: readonly string[];
}

/**
 * Custom words and clinicians' names are always kept (the owner asked for them; names are what
 * a generic model misses most). Template and note words are kept when the base model lacks them
 * or rates them rare: the practice's drugs and terms, not its everyday English.
 */
export function selectTerms(sources: TermSources, base: BaseVocabulary): VocabularyTerm[] {
  const chosen = new Map<string, VocabularyTerm>();
  const contexts = new Map<string, Map<string, number>>();
  const counts = new Map<string, number>();

  const add = (word: string, source: TermSource) => {
    if (!chosen.has(word)) chosen.set(word, { word, source });
  };
  for (const entry of sources.custom) for (const w of spokenWords(entry)) add(w, "custom");
  for (const name of sources.clinicianNames) for (const w of spokenWords(name)) if (!TITLES.has(w)) add(w, "clinician");

  const scan = (texts: readonly string[], source: TermSource) => {
    for (const text of texts) {
      const list = spokenWordsKeepingOrder(text);
      list.forEach((w, i) => {
        const rare = !base.has(w) || (base.unigram(w) ?? Number.NEGATIVE_INFINITY) < RARE_UNIGRAM;
        if (w.length < MIN_LENGTH || !(rare || chosen.has(w))) return;
        if (rare) add(w, source);
        counts.set(w, (counts.get(w) ?? 0) + 1);
        const previous = list[i - 1];
        if (previous && base.has(previous)) {
          const seen = contexts.get(w) ?? new Map<string, number>();
          seen.set(previous, (seen.get(previous) ?? 0) + 1);
          contexts.set(w, seen);
        }
      });
    }
  };
  scan(sources.templateTexts, "template");
  scan(sources.noteTexts, "note");

  // Names also follow a title when spoken ("doctor okafor"), whatever the notes say.
  for (const term of chosen.values()) {
    if (term.source === "clinician") {
      const seen = contexts.get(term.word) ?? new Map<string, number>();
      seen.set("doctor", (seen.get("doctor") ?? 0) + 1_000);
      contexts.set(term.word, seen);
    }
  }
  const priority: Record<TermSource, number> = { custom: 0, clinician: 1, template: 2, note: 3 };
  return [...chosen.values()]
    .sort(
      (a, b) =>
        priority[a.source] - priority[b.source] ||
        (counts.get(b.word) ?? 0) - (counts.get(a.word) ?? 0) ||
        a.word.localeCompare(b.word),
    )
    .slice(0, MAX_TERMS)
    .map((term) => {
      const before = [...(contexts.get(term.word) ?? new Map<string, number>()).entries()]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, MAX_CONTEXTS)
        .map(([w]) => w);
      return before.length ? { ...term, before } : term;
    });
}

/** Like spokenWords, but short words are kept so a term's previous word is really the one before it. */
function spokenWordsKeepingOrder(text: string): string[] {
  const plain = text.normalize("NFD").replace(/\p{M}/gu, "");
  return words(plain).filter((w) => /^[a-z](?:[a-z']*[a-z])?$/.test(w));
}

/** Text of every string in a JSON value (templates' sections, notes' content), in order. */
export function jsonStrings(value: unknown, into: string[] = []): string[] {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const v of value) jsonStrings(v, into);
  else if (value && typeof value === "object") for (const v of Object.values(value)) jsonStrings(v, into);
  return into;
}
