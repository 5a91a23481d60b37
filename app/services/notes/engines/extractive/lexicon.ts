// Per-language word lists the engine works from. English is the richest; French and Spanish carry
// what a sensible note needs (cues per section, negation, symptoms, note phrasing).
import type { NoteLanguage, SectionKind } from "../../model.ts";
import { EN } from "./lexicon-en.ts";
import { ES } from "./lexicon-es.ts";
import { FR } from "./lexicon-fr.ts";

export interface Lexicon {
  /** Words and phrases removed from speech before writing (fillers, hedges). */
  fillers: RegExp[];
  /** Openers stripped from the start of a sentence ("so", "okay", "well"). */
  openers: RegExp;
  /** Sentences that carry nothing clinical (greetings, thanks, small talk). */
  smallTalk: RegExp;
  /** Answers that mean no / yes to a question just asked. */
  answerNo: RegExp;
  answerYes: RegExp;
  /** A negation inside a sentence ("denies", "no", "not"). */
  negation: RegExp;
  /** Symptom and finding phrases, longest first; the system they belong to (review of systems). */
  symptoms: [phrase: string, system: string][];
  /** Filled by lexiconFor: each symptom's folded pattern, parallel to `symptoms`. */
  symptomPatterns?: RegExp[];
  /** Clinician questions asking why the patient came (their answer is the chief complaint). */
  reasonQuestion: RegExp;
  /** Words that make a sentence clinical. */
  clinical: RegExp;
  /** Cues that a sentence belongs to a kind of section. */
  cues: Partial<Record<SectionKind, RegExp>>;
  /** Title or instruction words that reveal a custom section's kind. */
  titleKinds: [RegExp, SectionKind][];
  /** Note phrasing. */
  write: {
    denies: (items: string[]) => string;
    reports: (items: string[]) => string;
    list: (items: string[]) => string;
    patient: { female: string; male: string; unknown: string };
  };
  /** Unpunctuated speech (ASR, ambient transcripts): words that start a new sentence, and those that start a question. */
  sentenceStarts: RegExp;
  questionStarts: RegExp;
  /** Number words for digits ("six months" → "6 months"). */
  numbers: Record<string, number>;
  tens: Record<string, number>;
  /** The word for a hundred when the language's numbers are converted with it ("six hundred" → 600). */
  hundred?: string;
  /** The decimal point as said ("point", "virgule", "coma"). */
  point?: string;
  /** Unit words a spelled-out number must precede to be turned into digits. */
  units: RegExp;
}

const SOURCES: Record<NoteLanguage, Lexicon> = { en: EN, fr: FR, es: ES };
const folded = new Map<NoteLanguage, Lexicon>();

/** Lower case without diacritics: JavaScript's \b only knows ASCII letters, so text and patterns are both folded. */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/œ/g, "oe")
    .replace(/[’‘]/g, "'");
}

function foldRegex(re: RegExp): RegExp {
  return new RegExp(fold(re.source), re.flags);
}

/** The language's lexicon with its matching patterns folded (match them against `fold(text)`); fillers and openers apply to the written text. */
export function lexiconFor(language: NoteLanguage): Lexicon {
  const cached = folded.get(language);
  if (cached) return cached;
  const source = SOURCES[language];
  const lexicon: Lexicon = {
    ...source,
    smallTalk: foldRegex(source.smallTalk),
    answerNo: foldRegex(source.answerNo),
    answerYes: foldRegex(source.answerYes),
    negation: foldRegex(source.negation),
    symptomPatterns: source.symptoms.map(
      ([phrase]) => new RegExp(`(?<![\\p{L}])${fold(phrase).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}])`, "u"),
    ),
    reasonQuestion: foldRegex(source.reasonQuestion),
    sentenceStarts: foldRegex(source.sentenceStarts),
    questionStarts: foldRegex(source.questionStarts),
    clinical: foldRegex(source.clinical),
    cues: Object.fromEntries(Object.entries(source.cues).map(([kind, re]) => [kind, foldRegex(re)])),
    units: foldRegex(source.units),
  };
  folded.set(language, lexicon);
  return lexicon;
}

export function joinList(items: string[], and: string): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${and} ${items[items.length - 1]}`;
}
