// Procedure suggestions from the organisation's imported CPT or CDT (docs/coding.md "Procedure
// suggestions"): a code is proposed when a sentence of the note carries most of its descriptor's
// content words (its short or its long descriptor, whichever is covered better); CDT lines also take
// the tooth (Universal or FDI, stored Universal) and surfaces stated in that sentence. Murmur ships no
// CPT/CDT content, so only what the practice imported can be matched.
import { expandAbbreviation } from "../abbreviations.ts";
import type { EvidenceSource, Suggestion } from "../model.ts";
import { isStopWord, stem, tokenize, words } from "../text.ts";
import { surfacesOf, toothMentions } from "./teeth.ts";

export interface ProcedureCode {
  code: string;
  short: string;
  long: string;
}

/** Words of a descriptor that say nothing about which procedure it is. */
const FILLER = new Set(
  [
    "each",
    "additional",
    "per",
    "patient",
    "procedure",
    "service",
    "one",
    "two",
    "three",
    "four",
    "only",
    "list",
    "separately",
    "code",
    "primary",
    "addition",
    "least",
    "including",
    "when",
    "performed",
  ].map(stem),
);
/** Share of a descriptor's content words a sentence must carry (less for a long descriptor matched by many words). */
const MIN_COVERAGE = 0.75;
const MIN_COVERAGE_LONG = 0.6;
const LONG_HITS = 4;

function contentWords(descriptor: string): string[] {
  const core = descriptor.replace(/\([^)]*\)/g, " ");
  return [...new Set(words(core).filter((w) => !isStopWord(w) && !FILLER.has(w) && w.length > 1 && !/^\d+$/.test(w)))];
}

interface Indexed {
  entry: ProcedureCode;
  variants: string[][];
}

export function indexProcedures(codes: ProcedureCode[]): Indexed[] {
  return codes
    .map((entry) => ({
      entry,
      variants: [contentWords(entry.short), contentWords(entry.long)].filter((v) => v.length > 0 && v.length <= 12),
    }))
    .filter((x) => x.variants.length > 0);
}

function sentenceSpans(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  const boundary = /(?<=[.!?])\s+|\n+/g;
  for (let m = boundary.exec(text); ; m = boundary.exec(text)) {
    const end = m ? m.index : text.length;
    if (end > start) out.push([start, end]);
    if (!m) break;
    start = m.index + m[0].length;
  }
  return out;
}

export function suggestProcedures(
  system: "cpt" | "cdt",
  index: Indexed[],
  sources: ReadonlyArray<{ source: EvidenceSource; text: string }>,
  limit = 20,
): Suggestion[] {
  const best = new Map<string, Suggestion & { score: number }>();
  for (const src of sources) {
    for (const [from, to] of sentenceSpans(src.text)) {
      const tokens = tokenize(src.text.slice(from, to)).map((t) => ({ ...t, start: t.start + from, end: t.end + from }));
      const at = new Map<string, { start: number; end: number }>();
      for (const t of tokens) {
        const expansion = expandAbbreviation(src.text.slice(t.start, t.end));
        for (const w of expansion ? [t.word, ...expansion.split(/[\s-]+/).map(stem)] : [t.word]) if (!at.has(w)) at.set(w, t);
      }
      const sentence = src.text.slice(from, to);
      const teeth = system === "cdt" ? toothMentions(src.text, from, to) : [];
      for (const { entry, variants } of index) {
        let chosen: { coverage: number; hits: string[]; size: number } | null = null;
        for (const v of variants) {
          const hits = v.filter((w) => at.has(w));
          const coverage = hits.length / v.length;
          const enough =
            (coverage >= MIN_COVERAGE && hits.length >= Math.min(2, v.length)) ||
            (coverage >= MIN_COVERAGE_LONG && hits.length >= LONG_HITS);
          if (enough && (!chosen || coverage > chosen.coverage)) chosen = { coverage, hits, size: v.length };
        }
        if (!chosen) continue;
        const spans = chosen.hits.map((w) => at.get(w)!);
        const start = Math.min(...spans.map((s) => s.start));
        const end = Math.max(...spans.map((s) => s.end));
        // Longer descriptors fully covered are stronger evidence than one generic word.
        const score = chosen.coverage * Math.log2(1 + chosen.hits.length);
        const previous = best.get(entry.code);
        if (previous && previous.score >= score) continue;
        const tooth = teeth[0];
        const surfaces = tooth ? surfacesOf(sentence) : null;
        const evidence = [{ source: src.source, start, end, quote: src.text.slice(start, end) }];
        if (tooth)
          evidence.push({
            source: src.source,
            start: tooth.start,
            end: tooth.end,
            quote: src.text.slice(tooth.start, tooth.end),
          });
        const toothNote = tooth
          ? `; tooth ${tooth.tooth} (Universal${tooth.notation === "fdi" ? `, written in FDI as '${src.text.slice(tooth.start, tooth.end)}'` : ""})${surfaces ? `, surfaces ${surfaces}` : ""}${
              teeth.length > 1
                ? `; also teeth ${teeth
                    .slice(1)
                    .map((t) => t.tooth)
                    .join(", ")}: add a line per tooth`
                : ""
            }`
          : "";
        best.set(entry.code, {
          system,
          code: entry.code,
          description: entry.long,
          confidence: Math.round(Math.min(0.95, 0.4 + 0.5 * chosen.coverage * Math.min(1, chosen.hits.length / 3)) * 100) / 100,
          evidence,
          rationale: `'${src.text.slice(start, end)}' → ${entry.code} (${chosen.hits.length}/${chosen.size} descriptor words)${toothNote}`,
          ...(tooth ? { tooth: tooth.tooth } : {}),
          ...(surfaces ? { surfaces } : {}),
          score,
        });
      }
    }
  }
  return [...best.values()]
    .sort((a, b) => b.score - a.score || (a.code < b.code ? -1 : 1))
    .slice(0, limit)
    .map(({ score: _, ...s }) => s);
}
