import { splitSentences } from "#app/services/notes/sentences.ts";
import { GENERIC_WORDS as WEAK, words } from "../expand.ts";
import type { RankedPassage } from "../model.ts";
import { answerPhrases, type RagLanguage } from "../phrases.server.ts";
import { inSection, questionLanguage, type SectionRoute, sectionRoute } from "./intent.ts";
import { thirdPerson } from "./person.ts";

// The embedded engine's answer (issue 28 "Answers, not fragments"): the section or the sentences
// that answer the question, trimmed, de-duplicated, in the third person, each with its [n]
// marker — and, when a note and the recording disagree, the note's word with where it comes from
// ("The signed note of 28 Nov says: … (the recording said otherwise)"). Every fact is a source's
// own words; only the fixed phrases (locales/*/rag.json "answer") are the engine's.

export interface ComposeInput {
  question: string;
  terms: string[];
  expansions: string[];
  wantsAmount: boolean;
  passages: RankedPassage[];
  /** The reader's language: the answer's own words follow the question's when it can tell. */
  language: RagLanguage;
  /** The organisation's time zone: a signature's day is the clinic's day. */
  timeZone: string;
}

export interface Composed {
  answer: string;
  unanswered: boolean;
}

/** At most this many sentences, and about this many characters, in one answer. */
const MAX_SENTENCES = 4;
const MAX_CHARS = 420;
/** A sentence scoring under this share of the best one is left out. */
const KEEP_RATIO = 0.5;
/** Per authority level (0 case … 4 signed note): a note sentence outranks a transcript one that matches alike. */
const AUTHORITY_BOOST = 0.5;

/** The five-letter prefix both answer engines match words on. */
export const stem = (w: string) => (w.length > 5 ? w.slice(0, 5) : w);
const AMOUNT = /\d+(?:[.,]\d+)? ?(?:mg|milligrams?|mcg|micrograms?|g|grams?|ml|units?|milligrammes?|miligramos?|%)/i;
const BULLET = /^\s*(?:[-•*]|\d+[.)])\s+/;

interface Candidate {
  passage: number;
  text: string;
  score: number;
}

/** How well a sentence matches the question's own (stemmed) words and their expansions; shared with the extractive engine. */
export function scoreSentence(sentence: string, own: Set<string>, expanded: Set<string>) {
  let total = 0;
  let strong = false;
  const seen = new Set<string>();
  for (const w of words(sentence)) {
    const s = stem(w);
    if (seen.has(s)) continue;
    seen.add(s);
    if (own.has(s)) {
      total += WEAK.has(w) ? 0.3 : 1;
      if (!WEAK.has(w) && w.length >= 3) strong = true;
    } else if (expanded.has(s)) {
      total += 0.8;
      strong = true;
    }
  }
  return { score: total, strong };
}

/** Content words of a sentence (folded, 4+ letters, or numbers): what two sentences are compared on. */
const contentOf = (text: string) => new Set(words(text).filter((w) => w.length >= 4 || /\d/.test(w)));

/** True when every content word of `a` is in `b`: `a` says nothing `b` does not. */
function within(a: string, b: string): boolean {
  const wb = contentOf(b);
  const wa = [...contentOf(a)];
  return wa.length > 0 && wa.every((w) => wb.has(w));
}

/** "28 Nov" (issue 28's wording): day before month in all three languages. */
const LOCALES: Record<RagLanguage, string> = { en: "en-GB", fr: "fr-FR", es: "es-ES" };

function shortDate(iso: string, language: RagLanguage, timeZone: string): string {
  const locale = LOCALES[language];
  const date = iso.length === 10 ? new Date(`${iso}T12:00:00Z`) : new Date(iso);
  const zone = iso.length === 10 ? "UTC" : timeZone;
  try {
    return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: zone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" }).format(date);
  }
}

/** "The signed note of 28 Nov says:" for the note a passage belongs to. */
function provenance(p: RankedPassage, language: RagLanguage, timeZone: string): string {
  const phrases = answerPhrases(language);
  if (p.authority >= 4) {
    const date = shortDate(p.signedAt ?? p.date, language, timeZone);
    return (p.noteStatus === "amended" ? phrases.amendedSays : phrases.signedSays).replace("{{date}}", date);
  }
  const date = shortDate(p.date, language, timeZone);
  return (p.authority === 3 ? phrases.editedSays : phrases.draftSays).replace("{{date}}", date);
}

/** A transcript turn can run for a hundred words: keep the words around what the question asks. */
const WINDOW = 28;
function around(text: string, own: Set<string>): string {
  const tokens = text.split(/\s+/);
  if (tokens.length <= WINDOW + 8) return text;
  const hits = tokens.map((t, i) => (words(t).some((w) => own.has(stem(w))) ? i : -1)).filter((i) => i >= 0);
  const centre = hits.length ? (hits[0] as number) + Math.floor(((hits.at(-1) as number) - (hits[0] as number)) / 2) : 0;
  const from = Math.max(0, Math.min(centre - Math.floor(WINDOW / 2), tokens.length - WINDOW));
  const part = tokens.slice(from, from + WINDOW).join(" ");
  return `${from > 0 ? "…" : ""}${part}${from + WINDOW < tokens.length ? "…" : ""}`;
}

/** A source sentence as the answer says it. */
function said(p: RankedPassage, text: string, language: RagLanguage, own: Set<string>): string {
  const clean = around(text.replace(BULLET, "").trim(), own);
  if (p.table !== "transcriptions") return clean;
  return thirdPerson(clean, p.patientName || answerPhrases(language).thePatient, p.language);
}

function trim(sentences: { text: string; passage: number }[]): { text: string; passage: number }[] {
  const out: { text: string; passage: number }[] = [];
  let length = 0;
  for (const s of sentences) {
    if (out.length >= MAX_SENTENCES || (out.length > 0 && length + s.text.length > MAX_CHARS)) break;
    if (out.some((o) => within(s.text, o.text))) continue;
    out.push(s);
    length += s.text.length;
  }
  return out;
}

const end = (s: string) => (/[.!?:)…]$/.test(s) ? s : `${s}.`);

/** A problem heading of an assessment/plan ("Right knee pain."): where one problem's block starts. */
const HEADING = (t: string) => t.split(/\s+/).length <= 6 && !/:/.test(t);
/** What a plan sentence does, in three languages: a plan question wants these first. */
const ACTION =
  /\b(will|recommend\w*|order\w*|prescri\w*|continue|start\w*|refer\w*|follow[- ]?up|schedul\w*|plan|advis\w*|increase|decrease|stop|therapy|treatment|return|poursui\w*|commenc\w*|prescri\w*|adress\w*|contr[oô]le|continuar|iniciar|recet\w*|control)\b/i;

/**
 * The answer from the section the question names: the best-ranked passage of that section (the
 * ranking puts the visit the question is about, then the higher authority, first). Within the
 * section, the problem block its other words name ("the plan for the knee"), else its start;
 * a plan question keeps what is done (orders, prescriptions, follow-up) before the reasoning.
 */
function fromSection(input: ComposeInput, route: SectionRoute, own: Set<string>): Candidate[] | null {
  const index = input.passages.findIndex((p) => inSection(route, p));
  const p = input.passages[index];
  if (!p) return null;
  const cue = new Set(route.cue.map(stem));
  const topic = new Set([...own].filter((s) => !cue.has(s)));
  const sentences = (p.section?.length ? p.section : [p.text])
    .flatMap((t) => splitSentences(t))
    .map((t) => t.replace(BULLET, ""));
  const scores = sentences.map((text) => scoreSentence(text, topic, new Set()).score);
  const best = Math.max(0, ...scores);
  // A section that is no problem list (no heading lines) is read from its start.
  const list = sentences.some((t, i) => i > 0 && HEADING(t));
  const start = best > 0 && list ? scores.indexOf(best) : 0;
  const block: string[] = [];
  for (let i = start; i < sentences.length && block.length < 6; i++) {
    const text = sentences[i] as string;
    // A problem's block ends at the next problem; a summary sentence ("presents for follow-up of
    // his chronic problems") names them all, so its block runs on into them.
    if (i > start && HEADING(text) && HEADING(sentences[start] ?? "") && (scores[i] ?? 0) < best) break;
    block.push(text);
  }
  let chosen = block;
  if (route.intent === "plan") {
    // What is done first, then the rest (the answer's length limit cuts the reasoning first).
    const head = HEADING(block[0] ?? "") ? [block[0] as string] : [];
    const rest = block.slice(head.length);
    chosen = [...head, ...rest.filter((t) => ACTION.test(t)), ...rest.filter((t) => !ACTION.test(t))];
  }
  return chosen.map((text) => ({ passage: index, text, score: 1 }));
}

function fromSentences(input: ComposeInput, own: Set<string>, expanded: Set<string>): Candidate[] {
  const candidates: Candidate[] = [];
  input.passages.forEach((passage, index) => {
    for (const text of splitSentences(passage.text)) {
      const { score, strong } = scoreSentence(text, own, expanded);
      const amount = input.wantsAmount && AMOUNT.test(text) ? 1 : 0;
      if (!strong) continue;
      const base = score + amount + 0.3 / (index + 1);
      candidates.push({ passage: index, text, score: base * (1 + AUTHORITY_BOOST * passage.authority) });
    }
  });
  candidates.sort((a, b) => b.score - a.score || a.passage - b.passage);
  const best = candidates[0]?.score ?? 0;
  return candidates.filter((c) => c.score >= best * KEEP_RATIO);
}

/**
 * A lower source of the same visit that answers the same question in other words: the recording
 * said one thing, the note another. Compared on content words beyond the question's own.
 */
function disagreeing(input: ComposeInput, chosen: RankedPassage, answer: string, own: Set<string>): boolean {
  if (chosen.table !== "doctor_notes") return false;
  const answerWords = new Set([...contentOf(answer)].map(stem));
  return input.passages.some((p) => {
    if (p.authority >= chosen.authority || p.visitId !== chosen.visitId || p.table !== "transcriptions") return false;
    return splitSentences(p.text).some((s) => {
      const ws = [...contentOf(s)].map(stem);
      if (!ws.some((w) => own.has(w))) return false;
      const extra = ws.filter((w) => !own.has(w) && !answerWords.has(w));
      const numbers = (s.match(/\d+(?:[.,]\d+)?/g) ?? []).filter((n) => !answer.includes(n));
      return numbers.length > 0 || extra.length >= 2;
    });
  });
}

export function composeAnswer(input: ComposeInput): Composed {
  const language = questionLanguage(input.question, input.language);
  const own = new Set(input.terms.filter((t) => t.length > 1).map(stem));
  const expanded = new Set(input.expansions.flatMap((p) => words(p)).map(stem));
  const route = sectionRoute(input.question);
  const picked = (route && fromSection(input, route, own)) || fromSentences(input, own, expanded);
  if (picked.length === 0) return { answer: answerPhrases(input.language).notInRecords, unanswered: true };
  // One source speaks first: the top sentence's passage; its other sentences, then the next ones.
  const lead = input.passages[picked[0]?.passage ?? 0] as RankedPassage;
  const lines = trim(
    picked.map((c) => ({
      passage: c.passage,
      text: end(said(input.passages[c.passage] as RankedPassage, c.text, language, own)),
    })),
  );
  // One marker per run of sentences from the same passage.
  const body = lines.map((l, i) => (lines[i + 1]?.passage === l.passage ? l.text : `${l.text} [${l.passage + 1}]`)).join(" ");
  // "plan" and "assessment" say where to look: a recording that says "plan" does not disagree.
  // "allergic" or "medications" say what about: a recording naming another allergy does.
  const where = route && (route.intent === "plan" || route.intent === "assessment") ? route.cue.map(stem) : [];
  const topic = new Set([...own].filter((w) => !where.includes(w)));
  if (lead.table === "doctor_notes" && topic.size > 0 && disagreeing(input, lead, body, topic)) {
    const phrases = answerPhrases(language);
    return { answer: `${provenance(lead, language, input.timeZone)} ${body} ${phrases.recordingOtherwise}`, unanswered: false };
  }
  return { answer: body, unanswered: false };
}
