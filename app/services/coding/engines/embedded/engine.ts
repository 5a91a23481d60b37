import { expandAbbreviation } from "../../abbreviations.ts";
import type { CodeTable } from "../../codes/table.ts";
import { CONFIDENCE_CUTOFF } from "../../cutoff.ts";
import type { Evidence, EvidenceSource, MissingDetail, SuggestInput, Suggestion, SuggestionEngine } from "../../model.ts";
import { stem, type Token, tokenize } from "../../text.ts";
import { allergyStatement } from "./allergy.ts";
import { type Assertion, assertionOf, scopes } from "./context.ts";
import { phraseSpans } from "./phrases.ts";
import { type CandidateStats, featureVector, probability, type RankerModel, tailFeatureVector } from "./ranker.ts";
import { type RationaleNote, rationaleText } from "./rationale.ts";
import { excludes1, historyCode } from "./rules.ts";
import { type SectionSpan, sectionAt, sectionSpans } from "./sections.ts";
import type { Term, TitleIndex } from "./title-index.ts";

// The embedded engine (default, offline, deterministic): title and learned-phrase matching per
// sentence, assertion status from cue words, detail selection among sibling codes, then ranking
// (docs/coding.md "Embedded engine").

/** Match strength of an allergen in an allergy statement: that of a typical two-to-three-word title. */
const ALLERGY_SCORE = 15;

/** Words this common in titles do not open candidates on their own (a rarer word must match too). */
const MAX_POSTINGS = 6000;

/**
 * Why a mention is only a low-confidence ("tail") candidate: its words are part of a longer match
 * elsewhere, a learned phrase below the confident thresholds, or a category title standing for its
 * most used billable child (backoff.ts).
 */
export type TailKind = "subsumed" | "weak" | "category";

interface Mention {
  key: string;
  tail: TailKind | null;
  kind: "title" | "learned" | "category" | "allergy";
  score: number;
  evidence: Evidence;
  assertion: Assertion;
  missing: MissingDetail[];
  order: number;
  learned: boolean;
  /** P(code | phrase) of a learned-phrase match; 0 for a title match. */
  p: number;
  titleWords: number;
  /** The note section the mention is in (null: none, or a text without headers). */
  section: SectionSpan | null;
  /** A learned phrase that shares no naming word with the code's title (a coders' synonym). */
  unrelated: boolean;
  /** Matched through this Tabular List inclusion term rather than the code's title. */
  inclusionTerm?: string;
  /** Category backoff: the category standing for the code. */
  category?: { code: string; title: string };
}

/** What the learned ranking needs beside the lexicon: the ranker and each code's training frequency. */
export interface LearnedRanking {
  /** Absent: rank by the summed match score (the prior is still a candidate statistic). */
  ranker?: RankerModel;
  /** Orders the tail (candidates without a confident match), after every confident candidate. */
  tailRanker?: RankerModel;
  prior: Map<string, number>;
  /** Share of training documents coded in each 3-character category. */
  categoryPrior?: Map<string, number>;
}

/** What the engine matches besides the billable titles (index.ts builds them once per lexicon). */
export interface EngineMatchers {
  learned: Map<string, Term[]>;
  /** Learned phrases below the confident thresholds: tail candidates only. */
  weak?: Map<string, Term[]>;
  /** Category titles standing for one billable child: tail candidates only. */
  categories?: TitleIndex;
}

interface Sentence {
  source: EvidenceSource;
  text: string;
  start: number;
  end: number;
  section: SectionSpan | null;
}

function sentences(source: EvidenceSource, text: string): Sentence[] {
  const heads = sectionSpans(text);
  // A section title is never coded: a sentence starting inside one starts after it.
  return sentenceSpans(source, text).flatMap((s) => {
    const head = heads.find((h) => h.start <= s.start && h.body > s.start);
    const start = head ? Math.max(s.start, head.body) : s.start;
    if (start >= s.end || text.slice(start, s.end).trim() === "") return [];
    return [{ ...s, start, section: sectionAt(heads, s.start) }];
  });
}

function sentenceSpans(source: EvidenceSource, text: string): Array<Omit<Sentence, "section">> {
  const out: Array<Omit<Sentence, "section">> = [];
  let start = 0;
  // Split after ". " / "? " / newline; a dot inside a number (40.2) or abbreviation (T.A:) does not end a sentence.
  const boundary = /(?<=[.!?])\s+|\n+/g;
  for (let m = boundary.exec(text); ; m = boundary.exec(text)) {
    const end = m ? m.index : text.length;
    if (end > start) out.push({ source, text, start, end });
    if (!m) break;
    start = m.index + m[0].length;
  }
  return out;
}

export interface Candidate {
  key: string;
  score: number;
  mentions: Mention[];
  first: number;
  note: string;
  stats: CandidateStats;
  /** No confident match: ranked after every confident candidate, by the tail ranker. */
  tail: boolean;
  /** Stated in the note's Assessment or Plan (or Diagnosis, Impression…): ranked above incidental mentions. */
  assessmentPlan: boolean;
}

export interface EmbeddedEngineOptions {
  /** Code history-of mentions as the condition itself (CodiEsp's convention) instead of its Z code. */
  historyAsCondition?: boolean;
  /** Most suggestions returned (confident first, then the tail). */
  limit?: number;
  /** false: confident candidates only (the ablation; the tail is on by default). */
  withTail?: boolean;
}

export function createEmbeddedEngine(
  table: CodeTable,
  index: TitleIndex,
  options: EmbeddedEngineOptions = {},
  matchers: EngineMatchers = { learned: new Map() },
  ranking?: LearnedRanking,
): SuggestionEngine & { suggestSync(input: SuggestInput): Suggestion[]; candidates(input: SuggestInput): Candidate[] } {
  const limit = options.limit ?? 50;
  const withTail = options.withTail !== false;
  const { learned } = matchers;

  type Found = { term: Term; tokenIdx: number[]; kind: Mention["kind"]; tail: TailKind | null };

  /** Terms of a title index whose required words are all in the sentence, close together. */
  function titleMatches(idx: TitleIndex, positions: Map<string, number[]>, kind: Found["kind"], tail: TailKind | null): Found[] {
    const counts = new Map<number, number>();
    for (const w of positions.keys()) {
      const post = idx.postings.get(w);
      if (!post || post.length > MAX_POSTINGS) continue;
      for (const id of post) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    // Full matches only; a word never opening candidates (too common) still has to be present.
    const found: Found[] = [];
    for (const [id, _] of counts) {
      const term = idx.terms[id]!;
      if (!term.required.every((w) => positions.has(w))) continue;
      const tokenIdx = closestOccurrences(term.required, positions, idx);
      const span = Math.max(...tokenIdx) - Math.min(...tokenIdx) + 1;
      if (span > Math.max(4, term.required.length * 3)) continue;
      found.push({ term, tokenIdx, kind, tail });
    }
    return found;
  }

  function matchSentence(s: Sentence, order: number, mentions: Mention[]): void {
    const raw = tokenize(s.text.slice(s.start, s.end)).map((t) => ({ ...t, start: t.start + s.start, end: t.end + s.start }));
    const tokens: Token[] = [];
    for (const t of raw) {
      const expansion = expandAbbreviation(s.text.slice(t.start, t.end));
      if (expansion) for (const w of expansion.split(/[\s-]+/)) tokens.push({ word: stem(w), start: t.start, end: t.end });
      else tokens.push(t);
    }
    const positions = new Map<string, number[]>();
    tokens.forEach((t, i) => {
      let p = positions.get(t.word);
      if (!p) {
        p = [];
        positions.set(t.word, p);
      }
      p.push(i);
    });
    // An allergy statement codes its allergens' allergy status (Z88.0 for penicillin) and nothing
    // else: "rash" in "penicillin (rash)" is the reaction on record, not a rash today.
    const allergens = allergyStatement(s.text.slice(s.start, s.end), s.section?.kind === "allergies");
    if (allergens) {
      for (const a of allergens) {
        const entry = table.get(a.code);
        if (!entry?.billable) continue;
        const start = s.start + a.start;
        const end = s.start + a.end;
        mentions.push({
          tail: null,
          kind: "allergy",
          learned: false,
          p: 0,
          titleWords: 3,
          key: entry.key,
          score: ALLERGY_SCORE,
          evidence: { source: s.source, start, end, quote: s.text.slice(start, end) },
          assertion: "present",
          missing: [],
          order,
          section: s.section,
          unrelated: false,
        });
      }
      return;
    }
    const found = titleMatches(index, positions, "title", null);
    const spans = phraseSpans(tokens);
    // A phrase that names a code by its own words (a title match, or a learned pair sharing a title
    // word) is explained by it: codes that merely co-occurred with the phrase in training do not
    // ride on it ("community acquired pneumonia" is J18.9, never B20 or D64.9; ADR 43).
    const named = new Set<string>();
    for (const f of found) for (let i = Math.min(...f.tokenIdx); i <= Math.max(...f.tokenIdx); i++) named.add(String(i));
    for (const p of spans) {
      const terms = learned.get(p.phrase) ?? [];
      const explained = terms.some((t) => t.related) || range(p.from, p.to).some((i) => named.has(String(i)));
      for (const term of terms) {
        if (!term.related && explained) continue;
        found.push({ term, tokenIdx: range(p.from, p.to), kind: "learned", tail: null });
      }
    }
    const extra: Found[] = [];
    if (withTail) {
      if (matchers.weak) {
        for (const p of spans) {
          for (const term of matchers.weak.get(p.phrase) ?? []) {
            extra.push({ term, tokenIdx: range(p.from, p.to), kind: "learned", tail: "weak" });
          }
        }
      }
      if (matchers.categories) extra.push(...titleMatches(matchers.categories, positions, "category", "category"));
    }
    if (found.length === 0 && extra.length === 0) return;
    // A match whose words are all inside a longer match elsewhere is that longer match's part ("pain"
    // in "chest pain"; "type 2 diabetes" in "type 2 diabetes mellitus with hyperglycemia"). Keeping
    // such learned phrases as candidates gained 0.009 MAP on held-out train but let a corpus
    // co-occurrence ("type 2 diabetes" → I10) outrank the stated diagnosis: not worth it.
    // With the tail on, such a part is kept as a tail candidate instead: ranked after every confident one.
    const sets = found.map((f) => new Set(f.tokenIdx));
    const kept: Found[] = [];
    found.forEach((f, i) => {
      const mine = sets[i]!;
      const subsumed = found.some(
        (g, j) =>
          j !== i && g.term.group !== f.term.group && sets[j]!.size > mine.size && [...mine].every((x) => sets[j]!.has(x)),
      );
      if (!subsumed) kept.push(f);
      else if (withTail) extra.push({ ...f, tail: "subsumed" });
    });
    kept.push(...extra);
    const sentenceWords = new Set(tokens.map((t) => t.word));
    const seenGroups = new Set<string>();
    const scopeList = scopes(s.text, s.start, s.end);
    for (const f of kept) {
      const groupKey = `${f.kind}|${f.term.group}`;
      if (seenGroups.has(groupKey)) continue;
      seenGroups.add(groupKey);
      const { term, missing } =
        f.kind === "title" ? chooseVariant(f.term.group, sentenceWords, index) : { term: f.term, missing: [] };
      const matchedTokens = f.tokenIdx.map((i) => tokens[i]!);
      const start = Math.min(...matchedTokens.map((t) => t.start));
      const end = Math.max(...matchedTokens.map((t) => t.end));
      const isLearned = f.kind === "learned";
      const cat = f.kind === "category" ? table.get(term.key.slice(0, 3)) : undefined;
      mentions.push({
        tail: f.tail,
        kind: f.kind,
        learned: isLearned,
        p: isLearned ? (term.p ?? 0) : 0,
        titleWords: f.kind === "title" ? term.required.length : 0,
        key: term.key,
        score: term.weight,
        evidence: { source: s.source, start, end, quote: s.text.slice(start, end) },
        assertion: assertionOf(matchedTokens, scopeList),
        missing,
        order,
        section: s.section,
        unrelated: isLearned && term.related === false,
        ...(cat ? { category: { code: cat.code, title: cat.title } } : {}),
        ...(term.inclusionTerm ? { inclusionTerm: term.inclusionTerm } : {}),
      });
    }
  }

  /** Every candidate code with its evidence and ranking statistics, unranked (the trainer's input). */
  function candidates(input: SuggestInput): Candidate[] {
    if (!input.systems.includes("icd10cm")) return [];
    const mentions: Mention[] = [];
    let order = 0;
    const all = input.sources.flatMap((src) => sentences(src.source, src.text));
    for (const s of all) matchSentence(s, order++, mentions);
    const total = Math.max(1, order);
    // Confident and tail mentions are summed apart: a confident candidate's statistics (and so its
    // rank) are what they were without the tail, and a code with any confident mention is not tail.
    const byCode = new Map<string, Omit<Candidate, "key">>();
    const tailByCode = new Map<string, Omit<Candidate, "key">>();
    // A code also denied or doubted elsewhere in the text is less likely to be coded.
    const doubted = new Map<string, number>();
    for (const m of mentions) {
      let key = m.key;
      let note = "";
      if (m.assertion === "negated" || m.assertion === "uncertain") {
        doubted.set(key, (doubted.get(key) ?? 0) + 1);
        continue;
      }
      if ((m.assertion === "history" || m.assertion === "family") && !options.historyAsCondition) {
        const z = historyCode(m.key, m.assertion === "family");
        if (!z || !table.get(z)?.billable) continue;
        note = m.assertion;
        key = z;
      }
      const map = m.tail ? tailByCode : byCode;
      const entry = map.get(key) ?? {
        score: 0,
        mentions: [],
        first: m.order,
        note,
        tail: m.tail !== null,
        assessmentPlan: false,
        stats: {
          titleScore: 0,
          learnedScore: 0,
          mentions: 0,
          firstPosition: m.order / total,
          maxP: 0,
          titleWords: 0,
          prior: ranking?.prior.get(key) ?? 0,
          categoryPrior: ranking?.categoryPrior?.get(key.replace(".", "").slice(0, 3)) ?? 0,
          siblings: 0,
          doubted: 0,
          lastPosition: m.order / total,
          categoryScore: 0,
          subsumed: 0,
          weak: 0,
          category: 0,
        },
      };
      // The visit's main reason comes first: earlier mentions weigh more, repeats add less each time.
      entry.score += (m.score * (1 + 0.5 * (1 - m.order / total))) / (1 + entry.mentions.length);
      if (m.kind === "category") entry.stats.categoryScore += m.score;
      else if (m.learned) entry.stats.learnedScore += m.score;
      else entry.stats.titleScore += m.score;
      if (m.tail) entry.stats[m.tail]++;
      entry.stats.maxP = Math.max(entry.stats.maxP, m.p);
      entry.stats.titleWords = Math.max(entry.stats.titleWords, m.titleWords);
      entry.stats.mentions++;
      // Only a mention that names the code by its own words: a coders' synonym learned from
      // co-occurrence ("amoxicillin" in the Plan) does not make a code the assessment's.
      if (!m.tail && !m.unrelated && isAp(m)) entry.assessmentPlan = true;
      entry.stats.lastPosition = Math.max(entry.stats.lastPosition, m.order / total);
      entry.mentions.push(m);
      map.set(key, entry);
    }
    // How many other confident codes share a category: coders code a category the text keeps returning to.
    const perCategory = new Map<string, number>();
    for (const key of byCode.keys()) perCategory.set(key.slice(0, 3), (perCategory.get(key.slice(0, 3)) ?? 0) + 1);
    for (const [key, e] of byCode) {
      e.stats.siblings = (perCategory.get(key.slice(0, 3)) ?? 1) - 1;
      e.stats.doubted = doubted.get(key) ?? 0;
    }
    return [
      ...[...byCode].map(([key, e]) => ({ key, ...e })),
      ...[...tailByCode].filter(([key]) => !byCode.has(key)).map(([key, e]) => ({ key, ...e })),
    ];
  }

  function suggestSync(input: SuggestInput): Suggestion[] {
    const every = candidates(input);
    const all = every.filter((c) => !c.tail);
    // With the learned ranking, the fitted probability orders the codes and is their confidence;
    // without it (titles only), the summed match score does.
    const probabilityOf = (c: Candidate) =>
      ranking?.ranker ? probability(ranking.ranker, featureVector(c.stats)) : 1 - Math.exp(-c.score / 10);
    const scored = all.map((c) => ({ ...c, probability: probabilityOf(c) }));
    scored.sort((a, b) => b.probability - a.probability || a.first - b.first);
    // The visit's main reason first: the likeliest code of the first sentence that has any leads
    // when that sentence states why the patient came ("follow-up for …"), otherwise unless the top
    // code is more than twice as likely (a case report often opens with background).
    // A note with an Assessment or Plan: what they state ranks above incidental mentions (the
    // subjective history, the allergy list), each group in probability order; such a code is above
    // the cut-off whatever its probability, the clinician's own assessment being the reason coded.
    const structured = scored.some((c) => c.assessmentPlan);
    if (structured) {
      const stated = scored.filter((c) => c.assessmentPlan);
      const rest = scored.filter((c) => !c.assessmentPlan);
      scored.splice(0, scored.length, ...stated, ...rest);
    } else {
      const opening = Math.min(...scored.map((c) => c.first));
      const main = scored.findIndex((c) => c.first === opening);
      if (main > 0 && (statesReason(input, scored[main]!) || scored[main]!.probability * 2 >= scored[0]!.probability))
        scored.unshift(...scored.splice(main, 1));
    }
    // The tail after every confident candidate (a case asks for none), ordered by its own ranker.
    // Merging both lists by probability scored the same on held-out train (±0.001 MAP) but let a
    // category backoff (E11.9) outrank the stated code (E11.65); appending can only add hits below
    // the confident list. Its confidence is capped at the last confident one's, so the list reads
    // from most to least likely.
    const floor = scored.length > 0 ? Math.min(...scored.map((c) => c.probability)) : 1;
    const tail =
      input.tail === false
        ? []
        : every
            .filter((c) => c.tail)
            .map((c) => ({
              ...c,
              probability: ranking?.tailRanker
                ? probability(ranking.tailRanker, tailFeatureVector(c.stats))
                : (1 - Math.exp(-c.score / 10)) / 10,
            }))
            .sort((a, b) => b.probability - a.probability || a.first - b.first)
            .map((c) => ({ ...c, probability: Math.min(c.probability, floor) }));
    const ranked = [...scored, ...tail].slice(0, limit);
    const language = input.language ?? "en";
    const out: Suggestion[] = ranked.map((e) => {
      const key = e.key;
      const entry = table.get(key)!;
      const first = e.mentions[0]!;
      const missing = [...new Set(e.mentions.flatMap((m) => m.missing))].filter((d) =>
        e.mentions.every((m) => m.missing.includes(d)),
      );
      // Quote the mentions of the section the code is stated in first (the Assessment, if any).
      // Mentions that name the code by its own words; learned synonyms only when there are none.
      const named = e.mentions.filter((m) => !m.unrelated);
      const shown = [...(named.length > 0 ? named : e.mentions)].sort(
        (a, b) =>
          Number(a.unrelated) - Number(b.unrelated) ||
          (e.assessmentPlan ? Number(isAp(b)) - Number(isAp(a)) : 0) ||
          a.order - b.order,
      );
      const lead = shown[0] ?? first;
      // Each wording once ("Cough" and "cough" are one quote).
      const quotes = [...new Map(shown.slice(0, 3).map((m) => [m.evidence.quote.toLowerCase(), m.evidence.quote])).values()];
      const notes: RationaleNote[] = [];
      if (e.note === "history" || e.note === "family") notes.push(e.note);
      if (lead.kind === "allergy") notes.push("allergy");
      if (lead.kind === "category") notes.push("category");
      else if (lead.tail === "weak") notes.push("weak");
      else if (lead.tail === "subsumed") notes.push("subsumed");
      else if (lead.unrelated) notes.push("learned");
      else if (lead.inclusionTerm) notes.push("inclusion");
      const confidence = Math.round(Math.min(0.99, Math.max(0.01, e.probability)) * 100) / 100;
      return {
        system: "icd10cm",
        code: entry.code,
        description: entry.title,
        confidence,
        above_cutoff: !e.tail && (confidence >= CONFIDENCE_CUTOFF || e.assessmentPlan),
        evidence: shown.slice(0, 5).map((m) => m.evidence),
        rationale: rationaleText({
          language,
          source: lead.evidence.source,
          section: lead.section?.title ?? null,
          quotes,
          code: entry.code,
          title: entry.title,
          notes,
          missing,
          ...(lead.category ? { category: lead.category } : {}),
          ...(lead.inclusionTerm ? { inclusionTerm: lead.inclusionTerm } : {}),
        }),
        ...(missing.length > 0 ? { missing } : {}),
      };
    });
    for (const s of out) {
      const clash = out.filter((o) => o !== s && excludes1(s.code, o.code)).map((o) => o.code);
      if (clash.length > 0) s.excludes1 = clash;
    }
    return out;
  }

  return {
    id: "embedded",
    suggestSync,
    candidates,
    async suggest(input) {
      return suggestSync(input);
    },
  };
}

const isAp = (m: Mention) => m.section?.kind === "assessment" || m.section?.kind === "plan";

// Words that introduce the reason for a visit, in the same sentence before the mention.
const REASON_CUE =
  /\b(?:follow[- ]?up (?:of|for|on)|here (?:today )?(?:for|with)|seen (?:today )?for|reason for (?:the )?(?:visit|consultation|referral)|chief complaint|comes? in (?:for|with)|(?:visit|consultation|referred) for)\b/i;

/** Whether the candidate's first mention follows a reason-for-visit cue in its own sentence. */
function statesReason(input: SuggestInput, c: Candidate): boolean {
  const m = c.mentions[0];
  const text = m && input.sources.find((s) => s.source === m.evidence.source)?.text;
  if (!m || !text) return false;
  const before = text.slice(Math.max(0, m.evidence.start - 120), m.evidence.start);
  return REASON_CUE.test(before.split(/[.!?\n]/).at(-1) ?? "");
}

/** For each required word, the occurrence closest to the rarest word's first occurrence. */
function closestOccurrences(required: string[], positions: Map<string, number[]>, index: TitleIndex): number[] {
  const anchorWord = [...required].sort((a, b) => (index.idf.get(b) ?? 0) - (index.idf.get(a) ?? 0))[0]!;
  const anchor = positions.get(anchorWord)![0]!;
  return required.map((w) => {
    const ps = positions.get(w)!;
    return ps.reduce((best, p) => (Math.abs(p - anchor) < Math.abs(best - anchor) ? p : best), ps[0]!);
  });
}

/**
 * Among sibling codes (same required words) the one whose laterality and episode the sentence
 * states; when it states none, the unspecified-side code and the initial encounter, flagged.
 */
function chooseVariant(group: string, words: Set<string>, index: TitleIndex): { term: Term; missing: MissingDetail[] } {
  let variants = (index.groups.get(group) ?? []).map((id) => index.terms[id]!);
  const missing: MissingDetail[] = [];
  if (variants.some((v) => v.laterality)) {
    const side =
      words.has("bilateral") || words.has("both")
        ? "bilateral"
        : words.has("right")
          ? "right"
          : words.has("left")
            ? "left"
            : null;
    const withSide = variants.filter((v) => v.laterality === side);
    if (side && withSide.length > 0) variants = withSide;
    else {
      const unspecified = variants.filter((v) => v.laterality === null);
      if (unspecified.length > 0) variants = unspecified;
      missing.push("laterality");
    }
  }
  if (variants.some((v) => v.episode)) {
    const stated = words.has("sequela")
      ? "sequela"
      : words.has("subsequent") || words.has("follow")
        ? "subsequent"
        : words.has("initial")
          ? "initial"
          : null;
    const match = variants.filter((v) => v.episode === (stated ?? "initial"));
    if (match.length > 0) variants = match;
    if (!stated) missing.push("episode_of_care");
  }
  // The shortest code among what is left: the least specific remaining variant ("unspecified").
  const term = [...variants].sort(
    (a, b) => a.fallback - b.fallback || a.key.length - b.key.length || (a.key < b.key ? -1 : 1),
  )[0]!;
  return { term, missing };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, k) => from + k);
}
