import type { RagLanguage } from "../phrases.server.ts";

// Issue 28 "first person turned into the patient's name or 'the patient'": a transcript says
// "I'm allergic to penicillin" or the clinician says "you take lisinopril"; the answer says
// "Jane Roe is allergic to penicillin". Only the common verb forms are turned (the rest of the
// sentence is the source's own words); the speaker tags of imported dialogues are dropped.

const SPEAKER = /^\s*\[(patient|doctor|clinician|speaker[^\]]*|patient_guest|guest)\]\s*/i;
/** Openers that carry nothing: "Um, okay, so I take…" → "I take…". */
const FILLER = /^(?:(?:um+|uh+|hmm+|okay|ok|so|well|yeah|yes|right|alright|and|euh|bon|alors|oui|bueno|pues|si|sí)\b[,.]?\s+)+/i;

type Rule = [RegExp, (name: string) => string];

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const EN_RULES: Rule[] = [
  [/\bI am\b|\bI'm\b|\bI’m\b/g, (n) => `${n} is`],
  [/\bI've\b|\bI’ve\b|\bI have\b/g, (n) => `${n} has`],
  [/\bI was\b/g, (n) => `${n} was`],
  [/\bI don't\b|\bI do not\b|\bI don’t\b/g, (n) => `${n} does not`],
  [/\bI (take|get|use|feel|need|think|know|see|want|go|eat|drink|smoke|sleep|walk|run|work|live)\b/g, (n) => `${n} $1s`],
  [/\bI (do)\b/g, (n) => `${n} does`],
  [/\bI\b/g, (n) => n],
  [/\bmy\b/gi, (n) => `${n}'s`],
  [/\bme\b/g, (n) => n],
];
const EN_YOU: Rule[] = [
  [/\byou are\b|\byou're\b|\byou’re\b/gi, (n) => `${n} is`],
  [/\byou've\b|\byou have\b|\byou’ve\b/gi, (n) => `${n} has`],
  [/\byou (take|get|use|feel|need)\b/gi, (n) => `${n} $1s`],
  [/\byour\b/gi, (n) => `${n}'s`],
];

const FR_RULES: Rule[] = [
  [/\bje suis\b/gi, (n) => `${n} est`],
  [/\bj'ai\b|\bj’ai\b/gi, (n) => `${n} a`],
  [/\bje prends\b/gi, (n) => `${n} prend`],
  [/\bje ne prends\b/gi, (n) => `${n} ne prend`],
  [/\bje\b/gi, (n) => n],
  [/\bmon\b/gi, () => "son"],
  [/\bma\b/gi, () => "sa"],
  [/\bmes\b/gi, () => "ses"],
];
const FR_YOU: Rule[] = [
  [/\bvous êtes\b/gi, (n) => `${n} est`],
  [/\bvous avez\b/gi, (n) => `${n} a`],
  [/\bvous prenez\b/gi, (n) => `${n} prend`],
  [/\bvotre\b/gi, () => "son"],
  [/\bvos\b/gi, () => "ses"],
];

const ES_RULES: Rule[] = [
  [/\b(?:yo )?soy\b/gi, (n) => `${n} es`],
  [/\b(?:yo )?estoy\b/gi, (n) => `${n} está`],
  [/\b(?:yo )?tengo\b/gi, (n) => `${n} tiene`],
  [/\b(?:yo )?tomo\b/gi, (n) => `${n} toma`],
  [/\bmis\b/gi, () => "sus"],
  [/\bmi\b/gi, () => "su"],
];
const ES_YOU: Rule[] = [
  [/\busted es\b/gi, (n) => `${n} es`],
  [/\busted tiene\b/gi, (n) => `${n} tiene`],
  [/\busted toma\b/gi, (n) => `${n} toma`],
];

const FIRST: Record<RagLanguage, Rule[]> = { en: EN_RULES, fr: FR_RULES, es: ES_RULES };
const SECOND: Record<RagLanguage, Rule[]> = { en: EN_YOU, fr: FR_YOU, es: ES_YOU };

/**
 * A transcript sentence as an answer says it: no speaker tag or filler, third person. The
 * patient's "I" and the clinician's "you" are the patient; a clinician's "I" is left alone, and
 * an untagged sentence (an ASR segment) is read as the patient's.
 */
export function thirdPerson(sentence: string, name: string, language: RagLanguage): string {
  const speaker = SPEAKER.exec(sentence)?.[1]?.toLowerCase() ?? "";
  const clinician = speaker === "doctor" || speaker === "clinician";
  let text = sentence.replace(SPEAKER, "").replace(FILLER, "").trim();
  for (const [pattern, to] of (clinician ? SECOND : FIRST)[language]) {
    text = text.replace(pattern, (_whole, verb?: unknown) => to(name).replace("$1", typeof verb === "string" ? verb : ""));
  }
  return cap(text.replace(/\s+/g, " ").trim());
}
