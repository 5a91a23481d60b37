// Contradictions inside a note and between a note and its transcript (issue 27): allergy
// present vs none, denies vs reports the same finding, a negated finding stated as present, left
// vs right for the same body part, two doses or frequencies for one drug. Deterministic and
// embedded, so every engine's output (extractive or OpenAI-compatible) goes through the same rules.
import { fold, lexiconFor } from "../engines/extractive/lexicon.ts";
import { numbersToDigits } from "../engines/extractive/text.ts";
import type { NoteLanguage, NoteSectionDraft, SectionKind, TranscriptPiece } from "../model.ts";
import { type Assertions, assertionsOf } from "./assertions.ts";

export type ContradictionCode = "allergy" | "denies_reports" | "negated_finding" | "laterality" | "dose" | "frequency";

export interface Contradiction {
  code: ContradictionCode;
  section: string;
  sentence: string;
  /** The statement it contradicts: another note sentence, or what was said in the visit. */
  other: string;
  /** Where `other` is: the note itself or the transcript. */
  against: "note" | "transcript";
}

interface Stated {
  section: string;
  sentence: string;
  domain: Domain;
  a: Assertions;
}

/**
 * What a section reports: the patient's account, the examination, results (labs, imaging). A
 * patient who denies swelling and an exam that finds edema do not contradict each other; the
 * assessment speaks for all three.
 */
type Domain = "subjective" | "exam" | "results" | "any";
function domainOf(kind: SectionKind): Domain {
  if (["chief_complaint", "hpi", "history", "ros", "medications", "allergies"].includes(kind)) return "subjective";
  if (["exam", "vitals", "dental_exam", "periodontal"].includes(kind)) return "exam";
  if (kind === "results") return "results";
  return "any";
}
const comparable = (a: Domain, b: Domain) => a === "any" || b === "any" || a === b;

/** Sections that say what should happen, not what is: a plan's "return if fever" asserts nothing. */
const SKIPPED_KINDS: readonly SectionKind[] = ["plan", "patient_instructions", "referral"];

export function noteStatements(
  sections: readonly NoteSectionDraft[],
  kinds: ReadonlyMap<string, SectionKind>,
  language: NoteLanguage,
): Stated[] {
  const out: Stated[] = [];
  for (const section of sections) {
    const kind = kinds.get(section.key) ?? "other";
    if (SKIPPED_KINDS.includes(kind)) continue;
    for (const s of section.sentences) {
      // A template's fixed text and a chart's figures are not statements about this visit's findings.
      if (s.source === "template" || s.source === "chart") continue;
      out.push({
        section: section.key,
        sentence: s.text,
        domain: domainOf(kind),
        a: assertionsOf(s.text, language, kind === "allergies"),
      });
    }
  }
  return out;
}

export function findContradictions(
  sections: readonly NoteSectionDraft[],
  kinds: ReadonlyMap<string, SectionKind>,
  language: NoteLanguage,
  transcript: readonly TranscriptPiece[] = [],
): Contradiction[] {
  const note = noteStatements(sections, kinds, language);
  const out: Contradiction[] = [];
  const seen = new Set<string>();
  const add = (c: Contradiction) => {
    const key = `${c.code}|${c.section}|${c.sentence}|${c.other}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(c);
  };
  // Within the note: each pair of sentences once, the later one carries the check.
  for (let j = 0; j < note.length; j++) {
    const b = note[j] as Stated;
    for (let i = 0; i < j; i++) {
      const a = note[i] as Stated;
      for (const code of conflicts(a.a, b.a, comparable(a.domain, b.domain)))
        add({ code, section: b.section, sentence: b.sentence, other: a.sentence, against: "note" });
    }
  }
  for (const c of againstTranscript(note, transcript, language)) add(c);
  return out;
}

/** `findings`: whether the two sentences may disagree on a finding (comparable domains). */
function conflicts(a: Assertions, b: Assertions, findings = true): ContradictionCode[] {
  const out: ContradictionCode[] = [];
  const allergyNone = (x: Assertions) => x.allergy === "none";
  const allergyNamed = (x: Assertions) => Array.isArray(x.allergy) && x.allergy.length > 0;
  if ((allergyNone(a) && allergyNamed(b)) || (allergyNamed(a) && allergyNone(b))) out.push("allergy");
  for (const fa of findings ? a.findings : []) {
    const fb = b.findings.find((f) => f.finding === fa.finding && f.present !== fa.present);
    if (!fb) continue;
    out.push(fa.denied || fb.denied ? "denies_reports" : "negated_finding");
    break;
  }
  if (a.sides.some((sa) => b.sides.some((sb) => sb.part === sa.part && sb.side !== sa.side))) out.push("laterality");
  for (const da of a.doses) {
    for (const db of b.doses) {
      if (db.drug !== da.drug) continue;
      if (da.dose && db.dose && da.dose !== db.dose && !out.includes("dose")) out.push("dose");
      if (da.perDay !== undefined && db.perDay !== undefined && da.perDay !== db.perDay && !out.includes("frequency"))
        out.push("frequency");
    }
  }
  return out;
}

/**
 * The note against what was said: a note that says "no allergies" when the patient named one, a
 * denied finding the patient said they have, a dose the visit never mentioned for a drug it gave
 * another single dose for. Questions and the clinician's own words are not the patient's answer.
 */
function againstTranscript(
  note: readonly Stated[],
  transcript: readonly TranscriptPiece[],
  language: NoteLanguage,
): Contradiction[] {
  if (!transcript.length) return [];
  const lexicon = lexiconFor(language);
  const firstPerson = FIRST_PERSON[language];
  const heard = patientSentences(transcript).map((quote) => {
    const clean = numbersToDigits(quote, lexicon);
    return { quote, a: assertionsOf(clean, language), mine: firstPerson.test(fold(clean)) };
  });
  const allergens = heard.filter((h) => h.mine && Array.isArray(h.a.allergy));
  const out: Contradiction[] = [];
  for (const n of note) {
    if (n.a.allergy === "none") {
      const named = allergens[0];
      if (named)
        out.push({ code: "allergy", section: n.section, sentence: n.sentence, other: named.quote, against: "transcript" });
    }
    for (const f of n.a.findings) {
      if (f.present || !f.denied) continue;
      const reported = heard.find((h) => h.mine && h.a.findings.some((x) => x.finding === f.finding && x.present));
      const deniedToo = heard.some((h) => h.a.findings.some((x) => x.finding === f.finding && !x.present));
      if (reported && !deniedToo)
        out.push({
          code: "denies_reports",
          section: n.section,
          sentence: n.sentence,
          other: reported.quote,
          against: "transcript",
        });
    }
    for (const d of n.a.doses) {
      if (!d.dose) continue;
      const doses = new Set(heard.flatMap((h) => h.a.doses.filter((x) => x.drug === d.drug && x.dose).map((x) => x.dose)));
      const other = heard.find((h) => h.a.doses.some((x) => x.drug === d.drug && x.dose && x.dose !== d.dose));
      if (doses.size === 1 && !doses.has(d.dose) && other)
        out.push({ code: "dose", section: n.section, sentence: n.sentence, other: other.quote, against: "transcript" });
    }
  }
  return out;
}

const CLINICIAN =
  /^(?:doctor|dr|clinician|physician|provider|nurse|dentist|hygienist|medecin|docteur|medico|doctora|infirmiere|enfermera)\b/i;

/**
 * What may be the patient's own words: sentences of turns not marked as the clinician's, questions
 * left out. A plain split on end punctuation (not the engine's full re-punctuation): the time
 * budget is 50 ms a note, and a statement said without punctuation is still one sentence here.
 */
function patientSentences(transcript: readonly TranscriptPiece[]): string[] {
  const out: string[] = [];
  for (const piece of transcript) {
    if (piece.speaker && CLINICIAN.test(fold(piece.speaker))) continue;
    for (const part of piece.text.split(/(?<=[.!?])\s+/)) {
      const text = part.trim();
      if (text && !/[?¿]/.test(text)) out.push(text);
    }
  }
  return out;
}

/** The patient speaking of themself: what they have is theirs, not a question or someone else's. */
const FIRST_PERSON: Record<NoteLanguage, RegExp> = {
  en: /\b(?:i|i'm|i've|im|ive|my|me)\b/,
  fr: /\b(?:je|j'|j|moi|mon|ma|mes)\b|j'/,
  es: /\b(?:yo|tengo|me|mi|mis|soy|estoy)\b/,
};
