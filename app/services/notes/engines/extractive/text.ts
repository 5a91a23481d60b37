// Text clean-up shared by every step: ASR/transcript spacing, contractions, fillers, repeats,
// sentence boundaries and spelled-out numbers.
import type { NoteLanguage } from "../../model.ts";
import { fold, type Lexicon } from "./lexicon.ts";

const ABBREVIATIONS = /\b(?:dr|mr|mrs|ms|vs|st|no|approx|etc|e\.g|i\.e|p\.o|b\.i\.d|t\.i\.d|q\.d|sr|jr|mme|mlle|sra|srta)\.$/i;

/** Corpus transcripts space out punctuation ("do n't", "pain , and"); put it back as people write it. */
export function tidySpacing(text: string, language: NoteLanguage): string {
  let t = text.replace(/\s+/g, " ").trim();
  t = t.replace(/\s+([,.;:?!%])/g, "$1").replace(/\$\s+(\d)/g, "$$$1");
  if (language === "en") t = t.replace(/(\w) (n't|'s|'m|'re|'ve|'ll|'d)\b/gi, "$1$2");
  if (language === "fr") t = t.replace(/\b([jldnmstc]|qu) ' ?/gi, "$1'");
  return t;
}

/** Contractions spelled out so the note reads formally and the patient's voice can be rewritten. */
export function expandContractions(text: string, language: NoteLanguage): string {
  let t = text.replace(/\.{2,}|…/g, ",").replace(/,(\s*,)+/g, ",");
  if (language !== "en") return t;
  t = t
    .replace(
      /\b(ca|wo|sha)n't\b/gi,
      (_m, stem: string) => ({ ca: "can not", wo: "will not", sha: "shall not" })[stem.toLowerCase()] ?? _m,
    )
    .replace(/\b(\w+)n't\b/gi, "$1 not")
    .replace(/\bgon na\b/gi, "going to")
    .replace(/\bwan na\b/gi, "want to")
    .replace(/\bgot ta\b/gi, "got to")
    .replace(/\b(i|you|we|they)'re\b/gi, "$1 are")
    .replace(/\bi'm\b/gi, "i am")
    .replace(/\b(i|you|we|they)'ve\b/gi, "$1 have")
    .replace(/\b(i|you|we|they|he|she|it|that)'ll\b/gi, "$1 will")
    .replace(/\b(i|you|we|they|he|she)'d\b/gi, "$1 would")
    .replace(/\b(it|that|there|what|he|she)'s (been|got|had)\b/gi, "$1 has $2")
    .replace(/\b(it|that|there|what|he|she|here)'s\b/gi, "$1 is")
    .replace(/\blet's\b/gi, "let us")
    .replace(/\bcan not\b/gi, "cannot")
    .replace(/\b(\d+)\s*-?\s*years?\s*-?\s*old\b/gi, "$1-year-old");
  return t;
}

/** Fillers, stutters ("i , i", "or-") and openers ("so , okay ,") out of a spoken sentence. */
export function cleanSpeech(text: string, lexicon: Lexicon): string {
  let t = ` ${text} `;
  for (const filler of lexicon.fillers)
    t = t.replace(new RegExp(filler.source, filler.flags.includes("g") ? filler.flags : `${filler.flags}g`), " ");
  t = t.replace(/\s[\p{L}]+-(?=[\s,.?!])/gu, " ");
  // Repeated words and short runs: "my , my", "the the", "it was , it was".
  for (let pass = 0; pass < 2; pass++) t = t.replace(/\b([\p{L}']+(?: [\p{L}']+){0,2})(?:\s*,?\s+\1\b)+/giu, "$1");
  t = t
    .replace(/\s+/g, " ")
    .replace(/\s+([,.;:?!])/g, "$1")
    .replace(/([,;:])(?:\s*[,;:])+/g, "$1")
    .trim();
  let previous = "";
  while (previous !== t) {
    previous = t;
    t = t.replace(lexicon.openers, "").replace(/^[,.;:\s]+/, "");
  }
  return t
    .replace(/[,;:\s]+([.?!])$/, "$1")
    .replace(/^[,;:\s]+/, "")
    .trim();
}

/** Sentence boundaries inside one piece of speech, with character offsets for proportional timing. */
export function splitSentences(text: string): { text: string; from: number; to: number }[] {
  const out: { text: string; from: number; to: number }[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== "." && c !== "?" && c !== "!") continue;
    const next = text[i + 1];
    if (next !== undefined && next !== " ") continue;
    if (c === "." && ABBREVIATIONS.test(text.slice(Math.max(0, i - 6), i + 1))) continue;
    const piece = text.slice(from, i + 1).trim();
    if (piece) out.push({ text: piece, from, to: i + 1 });
    from = i + 1;
  }
  const rest = text.slice(from).trim();
  if (rest) out.push({ text: rest, from, to: text.length });
  return out;
}

/** Below this many words an unpunctuated turn stays one sentence. */
const SEGMENT_MIN_TURN = 12;
const SEGMENT_MIN_CHUNK = 4;
const SEGMENT_RUN_ON = 40;
// A sentence does not start right after these ("the thing that i have", "what i think").
const CONTINUES =
  /^(?:that|what|which|who|if|when|and|or|but|because|as|think|know|said|mean|the|a|an|to|of|in|with|for|at|from|my|your|his|her|is|are|was|were|be|been|have|has|had|do|does|did|than|where|how|why|appreciate|see|hear|notice|feel|palpate|detect|find|elicit|que|qui|de|le|la|les|et|ou|el|los|las|y|o|en|con|por|para)$/;

/**
 * Unpunctuated speech (ASR output, ambient transcripts) cut into sentences before words that
 * usually start one, with "?" after those that start a question. Punctuated text is left alone.
 */
export function punctuate(text: string, lexicon: Lexicon): string {
  // Punctuated speech: only run-on sentences are cut.
  if (/[.?!](?:\s|$)/.test(text)) {
    return splitSentences(text)
      .map((part) => (wordCount(part.text) > SEGMENT_RUN_ON ? punctuateRun(part.text.replace(/[.?!]$/, ""), lexicon) : part.text))
      .join(" ");
  }
  return punctuateRun(text, lexicon);
}

function punctuateRun(text: string, lexicon: Lexicon): string {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length < SEGMENT_MIN_TURN)
    return lexicon.questionStarts.test(fold(text.replace(lexicon.openers, ""))) ? `${text}?` : text;
  const chunks: string[][] = [[]];
  for (let i = 0; i < words.length; i++) {
    const current = chunks[chunks.length - 1] as string[];
    const ahead = fold(words.slice(i, i + 4).join(" "));
    const previous = fold(words[i - 1] ?? "");
    if (
      current.length >= SEGMENT_MIN_CHUNK &&
      words.length - i >= 2 &&
      !CONTINUES.test(previous) &&
      // "on your lung exam", "in her chart": a preposition before a possessive is not a sentence end.
      !(
        /^(?:on|in|into|onto|over|under|about|en|sur|dans|sobre)$/.test(previous) &&
        /^(?:your|his|her|their|my|the|votre|son|sa|ses|su|sus)\b/.test(ahead)
      ) &&
      lexicon.sentenceStarts.test(ahead)
    )
      chunks.push([words[i] as string]);
    else current.push(words[i] as string);
  }
  return chunks
    .filter((chunk) => chunk.length > 0)
    .map((chunk) => {
      const sentence = chunk.join(" ").replace(/[,;:]$/, "");
      const opening = sentence.replace(lexicon.openers, "");
      return `${sentence}${lexicon.questionStarts.test(fold(opening)) ? "?" : "."}`;
    })
    .join(" ");
}

/**
 * Readings said digit group by digit group: "one twenty over seventy" is 120/70 and a sugar of
 * "one thirty" is 130. Only next to "over" or a measurement word, so "eight thirty in the
 * morning" stays a time.
 */
function spokenReadings(text: string, lexicon: Lexicon): string {
  const units = Object.keys(lexicon.numbers).filter((w) => (lexicon.numbers[w] ?? 0) >= 1 && (lexicon.numbers[w] ?? 0) <= 9);
  const tens = Object.keys(lexicon.tens).concat(Object.keys(lexicon.numbers).filter((w) => (lexicon.numbers[w] ?? 0) >= 10));
  if (units.length === 0) return text;
  const pattern = new RegExp(`\\b(${units.join("|")}) (${tens.join("|")}|\\d{2})(?:[ -](${units.join("|")}))?\\b`, "gi");
  return text.replace(pattern, (match, lead: string, second: string, last: string | undefined, offset: number) => {
    const before = fold(text.slice(Math.max(0, offset - 40), offset));
    const after = fold(text.slice(offset + match.length, offset + match.length + 12));
    const reading =
      /^\s*(?:over|sur|sobre|\/)/.test(after) ||
      /\b(?:over|pressure|sugars?|glucose|weigh\w*|cholesterol|rate|pulse|running|tension|presion|glycemie|glucosa)\b/.test(
        before,
      );
    if (!reading) return match;
    const n = (x: string) => lexicon.numbers[x.toLowerCase()] ?? lexicon.tens[x.toLowerCase()] ?? Number(x);
    const tail = n(second) + (last ? n(last) : 0);
    return `${n(lead)}${String(tail).padStart(2, "0")}`;
  });
}

/** "one hundred point four" → "100.4" (after the whole part is in digits). */
function spokenDecimals(text: string, lexicon: Lexicon): string {
  const digits = Object.keys(lexicon.numbers).filter((w) => (lexicon.numbers[w] ?? 10) <= 9);
  if (!lexicon.point || digits.length === 0) return text;
  const pattern = new RegExp(`\\b(\\d+) ${lexicon.point} (${digits.join("|")}|\\d)\\b`, "gi");
  return text.replace(
    pattern,
    (_m, whole: string, decimal: string) => `${whole}.${lexicon.numbers[decimal.toLowerCase()] ?? decimal}`,
  );
}

/** "six hundred" → "600", "two hundred and fifty" → "250". */
function hundredsToDigits(text: string, lexicon: Lexicon, hundred: string): string {
  const units = Object.keys(lexicon.numbers).join("|");
  const tens = Object.keys(lexicon.tens).join("|");
  const pattern = new RegExp(
    `\\b(?:(${tens})[ -])?(${units}) ${hundred}(?: (?:and )?(?:(${tens})(?:[ -](${units}))?|(${units})))?\\b`,
    "gi",
  );
  return text.replace(
    pattern,
    (_m, lead: string | undefined, h: string, t: string | undefined, u: string | undefined, single: string | undefined) => {
      // "twenty three hundred" is 2300.
      const n = ((lead ? (lexicon.tens[lead.toLowerCase()] ?? 0) : 0) + (lexicon.numbers[h.toLowerCase()] ?? 0)) * 100;
      const rest = t
        ? (lexicon.tens[t.toLowerCase()] ?? 0) + (u ? (lexicon.numbers[u.toLowerCase()] ?? 0) : 0)
        : single
          ? (lexicon.numbers[single.toLowerCase()] ?? 0)
          : 0;
      return String(n + rest);
    },
  );
}

/**
 * Spelled-out numbers become digits when a unit follows ("six months" → "6 months") or when
 * they are compound ("twenty five" → "25"), so notes read like notes and numbers can be checked.
 */
export function numbersToDigits(text: string, lexicon: Lexicon): string {
  const words = Object.keys(lexicon.numbers).concat(Object.keys(lexicon.tens));
  if (words.length === 0) return text;
  if (lexicon.hundred) text = hundredsToDigits(text, lexicon, lexicon.hundred);
  text = spokenReadings(text, lexicon);
  text = spokenDecimals(text, lexicon);
  const pattern = new RegExp(
    `\\b(${Object.keys(lexicon.tens).join("|")})(?:[ -](${Object.keys(lexicon.numbers).join("|")}))?\\b|\\b(${Object.keys(lexicon.numbers).join("|")})\\b`,
    "gi",
  );
  return text.replace(
    pattern,
    (match, ten: string | undefined, unit: string | undefined, single: string | undefined, offset: number) => {
      const after = text.slice(offset + match.length).replace(/^[\s-]+/, "");
      if (ten) {
        const value = (lexicon.tens[ten.toLowerCase()] ?? 0) + (unit ? (lexicon.numbers[unit.toLowerCase()] ?? 0) : 0);
        return String(value);
      }
      if (single && lexicon.units.test(fold(after))) {
        const value = lexicon.numbers[single.toLowerCase()];
        return value === undefined ? match : String(value);
      }
      return match;
    },
  );
}

/** Units as notes write them: "20 milligrams" → "20 mg". */
export function shortUnits(text: string): string {
  return text
    .replace(/(\d)\s*(?:milligrams?|milligrammes?|miligramos?)\b/gi, "$1 mg")
    .replace(/(\d)\s*(?:micrograms?|microgrammes?|microgramos?)\b/gi, "$1 mcg")
    .replace(/(\d)\s*(?:percent|pour cent|por ciento)\b/gi, "$1%");
}

export function capitalise(text: string): string {
  return text.replace(/^(\s*)(\p{Ll})/u, (_m, space: string, letter: string) => space + letter.toUpperCase());
}

// Words a cut-off spoken sentence trails with ("… and get him off that and."), in en/fr/es.
const DANGLING =
  /(?:[\s,]+(?:and|or|but|so|to|the|a|an|of|with|that|if|because|for|in|on|at|yeah|okay|right|um|uh|et|ou|mais|donc|de|le|la|les|que|y|o|pero|el|los|las|con|por|para))+$/i;

export function endSentence(text: string): string {
  const t = text
    .trim()
    .replace(/[.?!,;:\s]+$/, "")
    .replace(DANGLING, "")
    .replace(/[,;:\s]+$/, "");
  return t ? `${t}.` : t;
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
