// Transcript sentences → candidate note sentences, each with the kind of section it belongs to,
// a salience score and its evidence. Only words said in the visit are written; the engine adds
// nothing but note phrasing ("Denies", "Reports", labels) and section structure.
import type { NoteLanguage, SectionKind } from "../../model.ts";
import { findDrugs } from "./drugs.ts";
import { findAllergy, findMedications, findPerio, findTeeth, findVitals } from "./facts.ts";
import { fold, type Lexicon } from "./lexicon.ts";
import { type Gender, toThirdPerson, type Voice } from "./person.ts";
import { findProblems, type Problem } from "./problems.ts";
import { type RewriteRole, rewriteSentence } from "./rewrite.ts";
import type { Sentence } from "./sentences.ts";
import { capitalise, endSentence, wordCount } from "./text.ts";

export interface Candidate {
  kind: SectionKind;
  text: string;
  score: number;
  /** Position in the visit, so a section reads in the order things were said. */
  order: number;
  evidence: Sentence[];
  /** Review-of-systems group ("Cardiovascular") when known. */
  system?: string;
  /** A fact line built from a sentence (vital, medication, allergy, review of systems) rather than the sentence rewritten. */
  derived?: boolean;
  /** Review-of-systems line: the symptoms and whether they were denied. */
  ros?: { items: string[]; negative: boolean };
  /** How the rewriting stage read it: an assessment, a plan item, a finding… */
  role?: RewriteRole;
  /** Said by the patient (reported speech). */
  patient?: boolean;
  /** The record's sex was kept where the clinician's pronouns said otherwise. */
  pronounConflict?: boolean;
}

/** The sex the clinician's pronouns give, when the record says otherwise: their pronouns are replaced by the record's. */
export interface PronounFix {
  from: Gender;
  to: Gender;
}

export interface Analysis {
  candidates: Candidate[];
  chiefComplaint: Candidate | null;
  gender: Gender;
  /** Problems the clinician took up, in order (problem-oriented assessment and plan). */
  problems: Problem[];
}

const EN_SWAP: Record<"male" | "female", [RegExp, (w: string) => string]> = {
  // The record says female: the clinician's he/him/his become she/her.
  female: [
    /\b(he|him|his|himself)\b/gi,
    (w) => ({ he: "she", him: "her", his: "her", himself: "herself" })[w.toLowerCase()] ?? w,
  ],
  male: [
    /\b(she|her|hers|herself)\b/gi,
    (w) => ({ she: "he", her: "his", hers: "his", herself: "himself" })[w.toLowerCase()] ?? w,
  ],
};

/** The record's pronouns in a clinician's sentence (English; French and Spanish notes rarely carry them). */
export function applyRecordSex(text: string, fix: PronounFix | null, language: NoteLanguage): { text: string; changed: boolean } {
  if (!fix || language !== "en" || fix.to === "unknown") return { text, changed: false };
  const [re, swap] = EN_SWAP[fix.to];
  let changed = false;
  const out = text.replace(re, (w: string) => {
    changed = true;
    const r = swap(w);
    return w.charAt(0) === w.charAt(0).toUpperCase() ? r.charAt(0).toUpperCase() + r.slice(1) : r;
  });
  return { text: out, changed };
}

const VITAL_LABELS: Record<NoteLanguage, Record<string, string>> = {
  en: {
    blood_pressure: "Blood pressure",
    heart_rate: "Heart rate",
    temperature: "Temperature",
    oxygen_saturation: "Oxygen saturation",
    respiratory_rate: "Respiratory rate",
    weight: "Weight",
  },
  fr: {
    blood_pressure: "Tension artérielle",
    heart_rate: "Fréquence cardiaque",
    temperature: "Température",
    oxygen_saturation: "Saturation en oxygène",
    respiratory_rate: "Fréquence respiratoire",
    weight: "Poids",
  },
  es: {
    blood_pressure: "Presión arterial",
    heart_rate: "Frecuencia cardíaca",
    temperature: "Temperatura",
    oxygen_saturation: "Saturación de oxígeno",
    respiratory_rate: "Frecuencia respiratoria",
    weight: "Peso",
  },
};

export function vitalLabel(language: NoteLanguage, name: string): string {
  return VITAL_LABELS[language][name] ?? name;
}

/** Symptom phrases in a folded sentence (longest first, no overlaps), as the lexicon writes them. */
export function symptomsIn(folded: string, lexicon: Lexicon): [string, string][] {
  const found: { at: number; phrase: string; system: string }[] = [];
  let rest = ` ${folded} `;
  lexicon.symptoms.forEach(([phrase, system], i) => {
    const re = lexicon.symptomPatterns?.[i];
    const at = re ? rest.search(re) : -1;
    if (re && at >= 0) {
      found.push({ at, phrase, system });
      rest = rest.replace(re, (m) => " ".repeat(m.length));
    }
  });
  return found.sort((a, b) => a.at - b.at).map(({ phrase, system }) => [phrase, system]);
}

export function clinicalWeight(s: Sentence, lexicon: Lexicon): number {
  const clinical = (s.folded.match(new RegExp(lexicon.clinical.source, "g")) ?? []).length;
  const numbers = (s.clean.match(/\d/g) ? 1 : 0) + (s.clean.match(/\d+/g) ?? []).length * 0.5;
  const drugs = findDrugs(s.clean).length * 2;
  return clinical + numbers + drugs;
}

// Without speakers (ASR), speech to the patient ("your throat is red") is the clinician's.
const SECOND_PERSON = /\b(?:you|your|vous|votre|vos|usted|su|sus)\b/;
const FIRST_PERSON = /\b(?:i|my|me|je|j'|mon|ma|mes|yo|mi|mis)\b/;

export function isDoctorSpeech(s: Sentence, lexicon: Lexicon): boolean {
  if (s.role !== "unknown") return s.role === "doctor";
  if (s.question) return true;
  const { plan, exam, results, assessment, vitals } = lexicon.cues;
  if (plan?.test(s.folded) || exam?.test(s.folded) || results?.test(s.folded) || vitals?.test(s.folded)) return true;
  if (assessment?.test(s.folded) && !/\b(?:i have|my|j'ai|tengo)\b/.test(s.folded)) return true;
  return SECOND_PERSON.test(s.folded) && !FIRST_PERSON.test(s.folded);
}

// A sentence still in the first or second person once rewritten ("we know this and we have him")
// reads as conversation, not a note: another sentence saying as much is preferred (issue 18).
const PERSON_IN_NOTE: Record<NoteLanguage, RegExp> = {
  en: /\b(?:i|we|you|my|our|your)\b/i,
  fr: /(?<![\p{L}])(?:je|j'|nous|vous|mon|ma|mes|notre|nos|votre|vos)(?![\p{L}])/iu,
  es: /(?<![\p{L}])(?:yo|nosotros|nosotras|usted|ustedes|mi|mis|nuestro|nuestra|nuestros|nuestras)(?![\p{L}])/iu,
};
const PERSON_PENALTY = 2;

export function speaksInPerson(text: string, language: NoteLanguage): boolean {
  return PERSON_IN_NOTE[language].test(text);
}

const INTRO = /\b\d+-year-old\b|\b\d+ ans\b|\b\d+ anos\b/;
const CC_PATTERNS = [
  /\bchief complaint (?:is|of) (?:an?\s+|the\s+)?(.{3,60}?)(?=[.,;?]|$)/,
  /\b(?:presents?|presenting|here|coming in|comes in|came in|seen|in today)\s+(?:today\s+|here\s+)?(?:for|with)\s+(?:an?\s+|the\s+|her\s+|his\s+|their\s+|some\s+)?(.{3,70}?)(?=[.,;?]|\s+(?:who|which|that|since|so|but|because|how|is|was)\b|$)/,
  /\b(?:consulte|vient|venu|venue)\s+(?:aujourd'hui\s+)?pour\s+(?:une?\s+|des\s+|le\s+|la\s+)?(.{3,60}?)(?=[.,;?]|$)/,
  /\b(?:consulta|viene|acude)\s+(?:hoy\s+)?(?:por|para)\s+(?:una?\s+|el\s+|la\s+)?(.{3,60}?)(?=[.,;?]|$)/,
];
const SCHEDULING = /\b(?:order|get|going to|schedule|we will|i will|voy a|vamos a|je vais|nous allons|on va)\b/;

/** Symptom phrases grouped by body system: one review-of-systems line per system. */
function bySystem(symptoms: [string, string][]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const [phrase, system] of symptoms) groups.set(system, [...(groups.get(system) ?? []), phrase]);
  return groups;
}

const BODY_PART =
  "(?:knee|ankle|hip|shoulder|elbow|wrist|hand|foot|toe|back|neck|arm|leg|chest|head|abdomen|stomach|belly|eye|ear|throat|finger|thumb|heel|jaw|tooth|scalp|calf|thigh|groin|flank)";
const BODY_PAIN = new RegExp(
  `\\b((?:(?:right|left|lower|upper|bilateral|low)\\s+)?(?:big\\s+)?${BODY_PART}s?)\\s+(pain|injury|swelling|problems?)\\b`,
);
const HURT = new RegExp(
  `\\b(?:hurt|injured|twisted|sprained|broke|problems? with) (?:my|your|his|her|the) ((?:(?:right|left)\\s+)?${BODY_PART})\\b`,
);
const PAIN_IN = new RegExp(`\\bpain in (?:my|your|the|his|her) ((?:(?:right|left|lower|upper|low)\\s+)?${BODY_PART})\\b`);

/** No stated reason for the visit: the first complaint said early on ("right ankle pain", "headache"). */
function earlyComplaint(sentences: Sentence[], lexicon: Lexicon): Candidate | null {
  const early = sentences.slice(0, Math.max(10, Math.ceil(sentences.length * 0.2)));
  for (const s of early) {
    const body = BODY_PAIN.exec(s.folded);
    const painIn = body ? null : PAIN_IN.exec(s.folded);
    const hurt = body || painIn ? null : HURT.exec(s.folded);
    const phrase = body
      ? `${body[1]} ${body[2]}`
      : painIn
        ? `${painIn[1]} pain`
        : hurt
          ? `${hurt[1]} ${/problem/.test(hurt[0]) ? "problems" : "injury"}`
          : null;
    if (phrase)
      return {
        kind: "chief_complaint",
        text: capitalise(endSentence(phrase)),
        score: 10,
        order: s.index,
        evidence: [s],
        derived: true,
      };
  }
  for (const s of early) {
    if (s.role === "doctor") continue;
    // "no fever, some chills": a symptom said with a negation before it is not the complaint.
    const symptom = symptomsIn(s.folded, lexicon).find(
      ([phrase]) => !new RegExp(`\\b(?:no|not|never|without|denies|any)\\s+(?:\\S+\\s+){0,2}${fold(phrase)}`).test(s.folded),
    );
    if (symptom)
      return {
        kind: "chief_complaint",
        text: capitalise(endSentence(symptom[0])),
        score: 10,
        order: s.index,
        evidence: [s],
        derived: true,
      };
  }
  return null;
}

export function analyse(
  sentences: Sentence[],
  language: NoteLanguage,
  lexicon: Lexicon,
  gender: Gender,
  pronounFix: PronounFix | null = null,
): Analysis {
  const candidates: Candidate[] = [];
  const subject = lexicon.write.patient[gender];
  const write = (s: Sentence, voice: Voice) => capitalise(endSentence(toThirdPerson(s.clean, voice, language, gender, subject)));
  const roleOf = (kind: SectionKind, plan: boolean): RewriteRole => {
    if (plan || kind === "plan" || kind === "patient_instructions" || kind === "referral" || kind === "procedure") return "plan";
    if (kind === "exam" || kind === "dental_exam" || kind === "periodontal" || kind === "vitals") return "exam";
    if (kind === "results") return "results";
    if (kind === "assessment" || kind === "assessment_plan") return "assessment";
    return "history";
  };
  const byTurn = new Map<number, Sentence[]>();
  for (const s of sentences) byTurn.set(s.turn, [...(byTurn.get(s.turn) ?? []), s]);
  let chiefComplaint: Candidate | null = null;
  const problems = findProblems(sentences, language, (s) => isDoctorSpeech(s, lexicon));
  // The sentence where the clinician takes up a problem ("pour votre dépression, vous dormez mieux")
  // is an assessment of it, whatever its words.
  const opensProblem = new Set(problems.map((p) => p.at));
  const ros = (symptoms: [string, string][], negative: boolean, evidence: Sentence[], score: number) => {
    for (const [system, phrases] of bySystem(symptoms)) {
      const items = phrases.map((phrase) => toThirdPerson(phrase, "clinician", language, gender, subject));
      const text = negative ? lexicon.write.denies(items) : lexicon.write.reports(items);
      candidates.push({
        kind: "ros",
        text,
        score: score + items.length,
        order: evidence[0]?.index ?? 0,
        evidence,
        system,
        derived: true,
        ros: { items, negative },
      });
    }
  };

  for (const s of sentences) {
    const words = wordCount(s.clean);
    if (words === 0) continue;
    const doctor = isDoctorSpeech(s, lexicon);
    const next = (byTurn.get(s.turn + 1) ?? []).filter((a) => a.role !== "doctor");
    const lastOfTurn = s === (byTurn.get(s.turn) ?? []).at(-1);

    if (!chiefComplaint && doctor && (INTRO.test(s.folded) || s.index < sentences.length * 0.25)) {
      for (const re of CC_PATTERNS) {
        const m = re.exec(s.clean.toLowerCase());
        if (!m?.[1]) continue;
        // A chief complaint is a heading: no possessive ("follow-up of his chronic problems").
        const phrase = m[1]
          .replace(/\s+(?:today|here|now)$/, "")
          .replace(/\b(?:his|her|their|my|your|son|sa|ses|su|sus)\s+/g, "");
        if (/\b(?:a|an|the|new|of|for|with|some|this|that|my|your|to|and|or|in)$/.test(phrase)) break;
        if (wordCount(phrase) <= 14 && (INTRO.test(s.folded) || lexicon.clinical.test(fold(phrase)))) {
          chiefComplaint = {
            kind: "chief_complaint",
            text: capitalise(endSentence(phrase)),
            score: 10,
            order: s.index,
            evidence: [s],
            derived: true,
          };
        }
        break;
      }
    }

    if (s.question && doctor) {
      // "What brings you in?" — the answer is the chief complaint.
      if (!chiefComplaint && lexicon.reasonQuestion.test(s.folded)) {
        const answer = next.find((a) => clinicalWeight(a, lexicon) >= 1);
        const symptoms = answer ? symptomsIn(answer.folded, lexicon) : [];
        if (answer && symptoms.length > 0) {
          const text = capitalise(endSentence(lexicon.write.list(symptoms.map(([phrase]) => phrase))));
          chiefComplaint = { kind: "chief_complaint", text, score: 10, order: answer.index, evidence: [answer], derived: true };
        }
      }
      // A clinician's question answered yes or no: a review-of-systems line.
      const symptoms = symptomsIn(s.folded, lexicon);
      const answer = next[0];
      if (symptoms.length > 0 && answer && lastOfTurn) {
        const said = fold(answer.quote).replace(/^[\s,.¿¡]+/, "");
        const no = lexicon.answerNo.test(said);
        if (no || lexicon.answerYes.test(said)) ros(symptoms, no, [s, answer], 3);
      }
      continue;
    }
    if (s.question) continue;
    if (lexicon.smallTalk.test(s.folded) && clinicalWeight(s, lexicon) < 2) continue;
    if (words < 3) continue;
    const weight = clinicalWeight(s, lexicon);

    // A "patient" line that speaks to the patient ("your x-ray shows…") is the clinician's (ASR tags swap speakers).
    const voice: Voice = doctor || (SECOND_PERSON.test(s.folded) && !FIRST_PERSON.test(s.folded)) ? "clinician" : "patient";
    const spoken = write(s, voice);
    const base = weight + Math.min(words, 30) / 15;
    const cuesPlan = doctor && (lexicon.cues.plan?.test(s.folded) ?? false);
    // The rewriting stage: each section kind reads the sentence in its own register.
    const push = (kind: SectionKind, score: number) => {
      const role = roleOf(kind, cuesPlan && (kind === "assessment_plan" || kind === "plan"));
      const rewritten = rewriteSentence(spoken, role, voice, language);
      if (!rewritten) return;
      const sexed = doctor ? applyRecordSex(rewritten, pronounFix, language) : { text: rewritten, changed: false };
      const candidate: Candidate = {
        kind,
        text: sexed.text,
        score: score - (speaksInPerson(sexed.text, language) ? PERSON_PENALTY : 0),
        order: s.index,
        evidence: [s],
        role,
      };
      if (!doctor) candidate.patient = true;
      if (sexed.changed) candidate.pronounConflict = true;
      candidates.push(candidate);
    };
    const fact = (kind: SectionKind, score: number, line: string) =>
      candidates.push({ kind, text: line, score, order: s.index, evidence: [s], derived: true });
    const cues = lexicon.cues;
    const isPlan = doctor && (cues.plan?.test(s.folded) ?? false);

    const vitals = findVitals(s.clean);
    for (const vital of vitals) fact("vitals", 5, `${vitalLabel(language, vital.name)}: ${vital.value}.`);
    const allergy = findAllergy(s.clean);
    if (allergy && !lexicon.negation.test(fold(allergy))) fact("allergies", 5, endSentence(capitalise(allergy)));
    else if (!isPlan) {
      for (const med of findMedications(s.clean)) {
        const line = [capitalise(med.drug), med.dose, med.frequency].filter(Boolean).join(" ");
        fact("medications", med.dose ? 4 : 2, endSentence(line));
      }
    }
    const teeth = findTeeth(s.clean);
    const perio = findPerio(s.clean);
    let dental = false;
    if (!isPlan && perio && (cues.periodontal?.test(s.folded) || teeth.length > 0)) {
      push("periodontal", base + 3);
      dental = true;
    } else if (!isPlan && (teeth.length > 0 || cues.dental_exam?.test(s.folded))) {
      push("dental_exam", base + (teeth.length > 0 ? 3 : 0));
      dental = doctor;
    }
    if (cues.procedure?.test(s.folded)) push("procedure", base);
    if (cues.referral?.test(s.folded)) push("referral", base);

    // Negated symptoms a patient volunteers also make review-of-systems lines; a short sentence
    // that is only that ("no chest pain, no cough") is not written twice.
    if (!doctor && lexicon.negation.test(s.folded)) {
      const symptoms = symptomsIn(s.folded, lexicon);
      if (
        symptoms.length > 0 &&
        symptoms.length <= 4 &&
        /^(?:\S+\s+){0,6}?(?:no|not|never|pas|jamais|aucun|nunca|ningun)\b/.test(s.folded)
      ) {
        ros(symptoms, true, [s], 0);
        if (words <= 12) continue;
      }
    }

    if (doctor) {
      if (INTRO.test(s.folded)) {
        push("hpi", base + 8);
        push("assessment_plan", base + 4);
        continue;
      }
      // A tooth finding belongs to the dental chart (or the exam when the template has none).
      if (dental) continue;
      const isExam = cues.exam?.test(s.folded) ?? false;
      const isResult = (cues.results?.test(s.folded) ?? false) && !SCHEDULING.test(s.folded);
      const isAssessment = (cues.assessment?.test(s.folded) ?? false) || opensProblem.has(s.index);
      // A sentence that only gives vitals is already written as vitals lines (one that also gives
      // an exam finding, "your blood pressure is 132 over 84 and your lungs are clear", is kept).
      if (vitals.length > 0 && !isExam && weight < 3 * vitals.length + 3) continue;
      if (isExam && !isPlan) push("exam", base + 2);
      else if (isResult) push("results", base + 2);
      else if (isPlan) {
        push("plan", base + 1);
        push("assessment_plan", base + 1);
        if (cues.patient_instructions?.test(s.folded)) push("patient_instructions", base);
      } else if (isAssessment) {
        push("assessment", base + 1);
        push("assessment_plan", base + 1);
      } else if (vitals.length > 0) push("exam", base);
      else if (weight >= 2) push("hpi", base - 1);
      continue;
    }
    if (weight < 1) continue;
    if (cues.history?.test(s.folded)) push("history", base);
    push("hpi", base);
  }
  chiefComplaint ??= earlyComplaint(sentences, lexicon);
  return { candidates, chiefComplaint, gender, problems };
}
