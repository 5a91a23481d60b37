// Speech → note voice: the patient's "I" and the clinician's "you" become the patient in the third
// person ("i've been having pain" → "She has been having pain").
import type { NoteLanguage } from "../../model.ts";

export type Gender = "female" | "male" | "unknown";
export type Voice = "patient" | "clinician";

interface Pronouns {
  subject: string;
  object: string;
  possessive: string;
  reflexive: string;
}

const EN_PRONOUNS: Record<Gender, Pronouns> = {
  female: { subject: "she", object: "her", possessive: "her", reflexive: "herself" },
  male: { subject: "he", object: "him", possessive: "his", reflexive: "himself" },
  unknown: { subject: "the patient", object: "them", possessive: "their", reflexive: "themselves" },
};

const ADVERBS =
  "(?:also|just|really|still|never|always|usually|actually|definitely|only|even|probably|typically|sometimes|now|already|mostly|generally|not|recently|finally|kind of|certainly)";
const UNCHANGED = new Set([
  "was",
  "had",
  "did",
  "will",
  "would",
  "could",
  "can",
  "cannot",
  "should",
  "might",
  "must",
  "may",
  "got",
  "went",
  "felt",
  "took",
  "saw",
  "came",
  "fell",
  "put",
  "ran",
  "began",
  "broke",
  "said",
  "told",
  "made",
  "thought",
  "knew",
  "gave",
  "left",
  "lost",
  "found",
  "kept",
  "slept",
  "ate",
  "drank",
  "woke",
  "heard",
  "hit",
  "quit",
  "bought",
  "brought",
  "caught",
  "sat",
  "stood",
  "wore",
  "used",
  "hurt",
  "cut",
  "shut",
]);
const IRREGULAR: Record<string, string> = { am: "is", are: "is", were: "was", have: "has", do: "does", go: "goes", be: "is" };
// After clinician's "you", these words show "you" is the subject (otherwise it is an object).
const SUBJECT_NEXT = new Set([
  "are",
  "were",
  "have",
  "had",
  "do",
  "did",
  "can",
  "could",
  "will",
  "would",
  "should",
  "might",
  "must",
  "may",
  "need",
  "feel",
  "take",
  "get",
  "got",
  "go",
  "went",
  "know",
  "think",
  "said",
  "mentioned",
  "told",
  "want",
  "seem",
  "look",
  "sound",
  "notice",
  "see",
  "use",
  "continue",
  "come",
  "came",
  "keep",
  "kept",
  "live",
  "work",
  "walk",
  "eat",
  "drink",
  "smoke",
  "sleep",
  "try",
  "start",
  "stop",
  "also",
  "just",
  "still",
  "never",
  "always",
  "really",
  "cannot",
  "experience",
  "describe",
  "hurt",
  "fell",
  "injured",
  "reported",
]);

function thirdPersonVerb(verb: string): string {
  const lower = verb.toLowerCase();
  if (IRREGULAR[lower]) return IRREGULAR[lower] as string;
  if (UNCHANGED.has(lower) || /(?:ed|ing|ly)$/.test(lower) || lower.includes("'")) return verb;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

function english(text: string, voice: Voice, p: Pronouns): string {
  let t = ` ${text} `;
  if (voice === "patient") {
    t = t.replace(
      new RegExp(`\\b[Ii] ((?:${ADVERBS} )*)([a-z']+)\\b`, "g"),
      (_m, adverbs: string, verb: string) => `${p.subject} ${adverbs}${thirdPersonVerb(verb)}`,
    );
    t = t.replace(/\b[Ii]\b(?!')/g, p.subject);
    t = t
      .replace(/\bmyself\b/gi, p.reflexive)
      .replace(/\bmy\b/gi, p.possessive)
      .replace(/\bme\b/gi, p.object);
    t = t.replace(/\bmine\b/gi, p.subject === "he" ? "his" : p.subject === "she" ? "hers" : "theirs");
  } else {
    t = t.replace(new RegExp(`\\byou ((?:${ADVERBS} )*)([a-z']+)\\b`, "gi"), (_match, adverbs: string, verb: string) => {
      // An adverb after "you" ("you already had") or a known verb shows "you" is the subject.
      if (!adverbs && !SUBJECT_NEXT.has(verb.toLowerCase()) && !verb.endsWith("ed")) return `${p.object} ${verb}`;
      return `${p.subject} ${adverbs}${thirdPersonVerb(verb)}`;
    });
    t = t
      .replace(/\byourself\b/gi, p.reflexive)
      .replace(/\byour\b/gi, p.possessive)
      .replace(/\byou\b/gi, p.object);
    // Plans in note voice: "i am going to order" / "let us order" → "we will order".
    t = t.replace(
      /\b(?:i am going to|we are going to|i would like to|i want to|let us|i will|i'll)\s+(?!be\b|see\b|have\b|do\b)/gi,
      "we will ",
    );
    t = t.replace(/\bi\b/g, "I");
  }
  return t.trim();
}

const FR_VERBS: Record<string, string> = {
  suis: "est",
  ai: "a",
  vais: "va",
  peux: "peut",
  veux: "veut",
  dois: "doit",
  fais: "fait",
  sens: "sent",
  prends: "prend",
  dors: "dort",
  sors: "sort",
  bois: "boit",
  vois: "voit",
  sais: "sait",
  mets: "met",
  viens: "vient",
  tiens: "tient",
  crois: "croit",
  ressens: "ressent",
};

/** The clinician's "vous" + verb → the patient's third person (regular -er verbs: "-ez" → "-e"). */
const FR_VOUS: Record<string, string> = {
  retenez: "retient",
  dormez: "dort",
  prenez: "prend",
  faites: "fait",
  dites: "dit",
  sentez: "sent",
  ressentez: "ressent",
  buvez: "boit",
  perdez: "perd",
  venez: "vient",
  tenez: "tient",
  sortez: "sort",
  connaissez: "connaît",
  savez: "sait",
};

const FR_VOUS_INSTRUCTION = /^(?:devez|pouvez|allez|voulez|devriez|pourriez)$/i;

// Verbs whose French object is indirect ("je vous prescris" → "je lui prescris", but "je vous revois" → "je le revois").
const FR_INDIRECT = /^(?:prescri|recommande|conseille|donne|demande|explique|propose|dis|montre|envoie|écri|fais)/i;

function french(text: string, voice: Voice, subject: string): string {
  if (voice !== "patient") {
    return (
      text
        .replace(/\bje vous (?=([a-zàâéèêëîïôûüç]+))/gi, (_m, verb: string) =>
          FR_INDIRECT.test(verb) ? "je lui " : subject.startsWith("la ") ? "je la " : "je le ",
        )
        .replace(/\bvous avez\b/gi, `${subject} a`)
        .replace(/\bvous êtes\b/gi, `${subject} est`)
        // "vous retenez de l'eau" → "la patiente retient de l'eau" (the clinician speaking of the patient).
        // Not an instruction ("vous devez boire", "que vous fassiez"): the plan's rules write those as orders.
        .replace(
          /(?<!\bqu(?:e |'))\bvous (ne |n')?([a-zàâéèêëîïôûüç]+(?<!i)ez|faites|dites)(?![a-zàâéèêëîïôûüç])/gi,
          (m, neg: string | undefined, verb: string) =>
            FR_VOUS_INSTRUCTION.test(verb)
              ? m
              : `${subject} ${neg ?? ""}${FR_VOUS[verb.toLowerCase()] ?? verb.replace(/ez$/i, "e")}`,
        )
        // French possessives follow the noun: "sa" before a feminine-looking noun, else "son".
        .replace(/\bvotre (?=([a-zàâéèêëîïôûüç]+))/gi, (_m, noun: string) =>
          /(?:e|ion|té)$/.test(noun) && !/^[aeiouéèh]/.test(noun) ? "sa " : "son ",
        )
        .replace(/\bvos\b/gi, "ses")
    );
  }
  let t = ` ${text} `;
  t = t.replace(/\bj'(ai|étais|avais)\b/gi, (_m, v: string) => `${subject} ${v === "ai" ? "a" : v.replace(/ais$/, "ait")}`);
  t = t.replace(
    /\bje (ne |n')?(me |m')?([a-zàâéèêëîïôûüç]+)\b/gi,
    (_m, neg: string | undefined, me: string | undefined, verb: string) => {
      const lower = verb.toLowerCase();
      const third = FR_VERBS[lower] ?? (/ais$/.test(lower) ? lower.replace(/ais$/, "ait") : lower);
      // "je me suis tordu" → "s'est tordu": the reflexive elides before a vowel.
      const reflexive = me ? (me.trim() === "m'" || /^[aeéèêiouyh]/i.test(third) ? "s'" : "se ") : "";
      return `${subject} ${neg ?? ""}${reflexive}${third}`;
    },
  );
  t = t
    .replace(/\bmon\b/gi, "son")
    .replace(/\bma\b/gi, "sa")
    .replace(/\bmes\b/gi, "ses")
    .replace(/\bmoi\b/gi, "lui");
  t = t.replace(/ me (?=[a-zàâéèêëîïôûüç])/gi, " lui ").replace(/ m'(?=[aeéèiouyh])/gi, " lui ");
  return t.trim();
}

const ES_VERBS: Record<string, string> = {
  tengo: "tiene",
  estoy: "está",
  soy: "es",
  he: "ha",
  voy: "va",
  puedo: "puede",
  tomo: "toma",
  siento: "siente",
  duermo: "duerme",
  como: "come",
  bebo: "bebe",
  fumo: "fuma",
  trabajo: "trabaja",
  camino: "camina",
  noto: "nota",
  uso: "usa",
  necesito: "necesita",
  quiero: "quiere",
  hago: "hace",
  creo: "cree",
  pienso: "piensa",
  tuve: "tuvo",
  fui: "fue",
  estuve: "estuvo",
  empecé: "empezó",
  tomé: "tomó",
  sentí: "sintió",
  había: "había",
  estaba: "estaba",
  tenía: "tenía",
  vomito: "vomita",
  toso: "tose",
  duele: "duele",
  levanto: "levanta",
  acuesto: "acuesta",
  subo: "sube",
  // Preterites of what happened to the patient ("me torcí el tobillo" → "se torció el tobillo").
  torcí: "torció",
  caí: "cayó",
  corté: "cortó",
  quemé: "quemó",
  lastimé: "lastimó",
  golpeé: "golpeó",
  rompí: "rompió",
  puse: "puso",
  desperté: "despertó",
  quedé: "quedó",
  dormí: "durmió",
  noté: "notó",
};

const ES_REFLEXIVE =
  /^(?:siento|sient|sentí|caí|cai|cayó|levant|despiert|desperté|despertó|mare|cans|duermo|dormí|durmió|acuest|quedo|quedé|quedó|preocup|pongo|puse|puso|torcí|torció|corté|cortó|quemé|quemó|lastimé|lastimó|golpeé|golpeó|rompí|rompió)/i;

function spanish(text: string, voice: Voice): string {
  if (voice !== "patient") {
    return text
      .replace(/\busted tiene\b/gi, "tiene")
      .replace(/\busted está\b/gi, "está")
      .replace(/\bsu\b/gi, "su");
  }
  let t = ` ${text} `;
  // Letter boundaries rather than \b, which ends a word before an accented letter ("tomé", "torcí").
  t = t.replace(/(?<!\p{L})(?:yo )?(\p{L}+)(?!\p{L})/giu, (word: string, verb: string) => ES_VERBS[verb.toLowerCase()] ?? word);
  // "me" is reflexive before these verbs ("me siento" → "se siente"), else an indirect object ("me da" → "le da").
  t = t.replace(/\bme (?=([a-záéíóúñ]+))/gi, (_m, verb: string) => (ES_REFLEXIVE.test(verb) ? "se " : "le "));
  t = t.replace(/\bmis\b/gi, "sus").replace(/\bmi\b/gi, "su");
  return t.trim();
}

export function toThirdPerson(text: string, voice: Voice, language: NoteLanguage, gender: Gender, subject: string): string {
  if (language === "fr") return french(text, voice, subject);
  if (language === "es") return spanish(text, voice);
  return english(text, voice, EN_PRONOUNS[gender]);
}

/** Gender from the context, else from how the clinician speaks of the patient. */
export function guessGender(sex: string | undefined, folded: string[], language: NoteLanguage): Gender {
  if (sex) {
    if (/^(?:f|female|woman|femme|mujer|femenino)/i.test(sex)) return "female";
    if (/^(?:m|male|man|homme|hombre|masculino)/i.test(sex)) return "male";
  }
  let female = 0;
  let male = 0;
  const count = (re: RegExp, text: string) => (text.match(re) ?? []).length;
  for (const text of folded) {
    if (language === "en") {
      female +=
        3 * count(/\b\d+[- ]year[- ]old (?:female|woman|lady|girl)\b|\b(?:mrs|ms|miss)\b/g, text) +
        count(/\b(?:she|her|hers|herself)\b/g, text);
      male +=
        3 * count(/\b\d+[- ]year[- ]old (?:male|man|gentleman|boy)\b|\bmr\b/g, text) + count(/\b(?:he|him|his|himself)\b/g, text);
    } else if (language === "fr") {
      female += count(/\b(?:madame|patiente|elle)\b/g, text);
      male += count(/\b(?:monsieur|il)\b/g, text);
    } else {
      female += count(/\b(?:senora|la paciente|ella)\b/g, text);
      male += count(/\b(?:senor|el paciente|el)\b/g, text) / 4;
    }
  }
  if (female > male * 1.5 && female >= 2) return "female";
  if (male > female * 1.5 && male >= 2) return "male";
  return "unknown";
}
