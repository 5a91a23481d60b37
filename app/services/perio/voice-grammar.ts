// The voice-charting grammar (issue 14 "Voice charting"; ADR 0014): a JSGF finite-state grammar for
// SoundSwallower in English and French — probing values 0–15 alone or as site triplets ("three two
// three" / "trois deux trois") and a few commands — plus the parser from the recognised words to a
// command. Shared by the browser voice mode and bench/perio-voice, so the bench measures exactly
// what the chart hears. Spanish has no offline acoustic model: voice is English and French only.
import { ENGLISH_ONES } from "#app/utils/number-words.ts";

export type VoiceLanguage = "en" | "fr";
export const VOICE_LANGUAGES: readonly VoiceLanguage[] = ["en", "fr"];

export type VoiceCommand =
  | { kind: "values"; values: number[] }
  | { kind: "flag"; flag: "bop" | "suppuration" | "plaque" | "calculus" }
  | { kind: "skip" | "missing" | "next_tooth" | "back" | "undo" | "stop" }
  | { kind: "tooth"; tooth: number }
  | { kind: "mobility"; value: number }
  | { kind: "furcation"; value: number }
  | { kind: "recession"; value: number };

const EN_NUMBERS = [...ENGLISH_ONES];
const EN_TENS: Record<number, string> = { 20: "twenty", 30: "thirty", 40: "forty" };
const FR_NUMBERS = [
  "zéro",
  "un",
  "deux",
  "trois",
  "quatre",
  "cinq",
  "six",
  "sept",
  "huit",
  "neuf",
  "dix",
  "onze",
  "douze",
  "treize",
  "quatorze",
  "quinze",
  "seize",
  "dix-sept",
  "dix-huit",
  "dix-neuf",
];
const FR_TENS: Record<number, string> = { 20: "vingt", 30: "trente", 40: "quarante" };

type Lexicon = {
  numbers: string[];
  tens: Record<number, string>;
  /** "vingt et un": French joins the tens and one with "et". */
  andOne?: string;
  phrases: Record<Exclude<VoiceCommand["kind"], "values" | "flag">, string> &
    Record<"bop" | "suppuration" | "plaque" | "calculus", string>;
  /** Pronunciations missing from the model's dictionary (ArpaBet for en-us, the fr-fr phone set). */
  extraWords: [string, string][];
};

export const LEXICONS: Record<VoiceLanguage, Lexicon> = {
  en: {
    numbers: EN_NUMBERS,
    tens: EN_TENS,
    phrases: {
      bop: "bleeding",
      suppuration: "suppuration",
      plaque: "plaque",
      calculus: "calculus",
      skip: "skip",
      missing: "missing",
      next_tooth: "next tooth",
      back: "back",
      undo: "undo",
      stop: "stop listening",
      tooth: "tooth",
      mobility: "mobility",
      furcation: "furcation",
      recession: "recession",
    },
    extraWords: [
      ["suppuration", "S AH P Y ER EY SH AH N"],
      ["furcation", "F ER K EY SH AH N"],
      // Non-rhotic "four" (British, Australian and much L2 English): without it a dropped R makes
      // "four" closer to "twelve" than to F AO R (ADR 0014, the largest single error on the tuning takes).
      ["four(2)", "F AO"],
    ],
  },
  fr: {
    numbers: FR_NUMBERS,
    tens: FR_TENS,
    andOne: "et",
    phrases: {
      bop: "saignement",
      suppuration: "suppuration",
      plaque: "plaque",
      calculus: "tartre",
      skip: "passer",
      missing: "manquante",
      next_tooth: "dent suivante",
      back: "retour",
      undo: "annuler",
      stop: "arrête écoute",
      tooth: "dent",
      mobility: "mobilité",
      furcation: "furcation",
      recession: "récession",
    },
    extraWords: [
      ["saignement", "ss ai gn ee mm an"],
      ["suppuration", "ss uu pp uu rr aa ss yy on"],
      ["tartre", "tt aa rr tt rr"],
      ["furcation", "ff uu rr kk aa ss yy on"],
    ],
  },
};

/** The spoken form of 1–48 (tooth numbers in either numbering). */
function spoken(n: number, lex: Lexicon): string {
  if (n < 20) return lex.numbers[n] as string;
  const tens = Math.floor(n / 10) * 10;
  const unit = n % 10;
  const t = lex.tens[tens] as string;
  if (unit === 0) return t;
  if (unit === 1 && lex.andOne) return `${t} ${lex.andOne} ${lex.numbers[1]}`;
  return `${t} ${lex.numbers[unit]}`;
}

const alternatives = (items: string[]) => items.map((s) => s).join(" | ");

export const MAX_VOICE_VALUE = 15;
const DIGIT_WEIGHT = 10;
const TEEN_WEIGHT = 1;

/** The JSGF grammar: one utterance is 1–3 values or one command. */
export function jsgfGrammar(lang: VoiceLanguage, weights = { digit: DIGIT_WEIGHT, teen: TEEN_WEIGHT }): string {
  const lex = LEXICONS[lang];
  const p = lex.phrases;
  // Weights: single digits are most of what is called out; 10–15 are rare and, unweighted, absorb
  // misheard digits ("four" heard as "twelve").
  const value = lex.numbers
    .slice(0, MAX_VOICE_VALUE + 1)
    .map((w, n) => `/${n < 10 ? weights.digit : weights.teen}/ ${w}`)
    .join(" | ");
  const tooth = alternatives(Array.from({ length: 48 }, (_, i) => spoken(i + 1, lex)));
  return `#JSGF V1.0;
grammar perio;
public <utterance> = <values> | <command>;
<values> = <value> [<value> [<value>]];
<value> = ${value};
<command> = ${p.bop} | ${p.suppuration} | ${p.plaque} | ${p.calculus} | ${p.skip} | ${p.missing} | ${p.next_tooth} | ${p.back} | ${p.undo} | ${p.stop}
  | ${p.tooth} <tooth> | ${p.mobility} (${alternatives(lex.numbers.slice(0, 4))}) | ${p.furcation} (${alternatives(lex.numbers.slice(1, 4))})
  | ${p.recession} <value>;
<tooth> = ${tooth};
`;
}

/** Reads numbers from recognised words (greedy: "twenty four" → 24, "trois deux" → 3, 2). */
function readNumbers(words: string[], lex: Lexicon): number[] | null {
  const out: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const tens = Object.entries(lex.tens).find(([, t]) => t === w);
    if (tens) {
      let n = Number(tens[0]);
      let j = i + 1;
      if (lex.andOne && words[j] === lex.andOne) j++;
      const unit = lex.numbers.indexOf(words[j] ?? "");
      if (unit >= 1 && unit <= 9) {
        n += unit;
        i = j;
      }
      out.push(n);
      continue;
    }
    const n = lex.numbers.indexOf(w);
    if (n < 0) return null;
    out.push(n);
  }
  return out;
}

/** The command for the recogniser's words, or null when they mean nothing (empty, out of grammar). */
export function parseVoice(text: string, lang: VoiceLanguage): VoiceCommand | null {
  const lex = LEXICONS[lang];
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const phrase = words.join(" ");
  const p = lex.phrases;
  for (const flag of ["bop", "suppuration", "plaque", "calculus"] as const) if (phrase === p[flag]) return { kind: "flag", flag };
  for (const kind of ["skip", "missing", "next_tooth", "back", "undo", "stop"] as const) if (phrase === p[kind]) return { kind };
  for (const kind of ["tooth", "mobility", "furcation", "recession"] as const) {
    if (words[0] === p[kind]) {
      const n = readNumbers(words.slice(1), lex);
      if (!n || n.length !== 1) return null;
      const value = n[0] as number;
      return kind === "tooth" ? { kind, tooth: value } : { kind, value };
    }
  }
  const values = readNumbers(words, lex);
  if (!values || values.length === 0 || values.length > 3 || values.some((v) => v > MAX_VOICE_VALUE)) return null;
  return { kind: "values", values };
}
