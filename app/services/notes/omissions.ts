// Facts said in the visit that no note sentence carries: medications, vitals and other numbers,
// allergies, negated findings, plans, tooth numbers. Works on any engine's output: it compares
// the transcript with the note's words, not with how the note was made.
import { clinicalWeight, isDoctorSpeech, symptomsIn, vitalLabel } from "./engines/extractive/candidates.ts";
import { findAllergy, findMedications, findTeeth, findVitals } from "./engines/extractive/facts.ts";
import { fold, lexiconFor } from "./engines/extractive/lexicon.ts";
import { type Sentence, transcriptSentences } from "./engines/extractive/sentences.ts";
import { numbersToDigits } from "./engines/extractive/text.ts";
import { evidenceOf } from "./engines/extractive/write.ts";
import type { NoteLanguage, NoteSectionDraft, Omission, OmissionKind, TranscriptPiece } from "./model.ts";

const NUMBER_WITH_UNIT =
  /\b(\d+(?:[.,]\d+)?(?:\/\d+)?)\s*(mg|milligrams?|mcg|units?|ml|%|percent|days?|weeks?|months?|years?|hours?|pounds?|lbs?|kg|kilos?|mm|cm|degrees|times|jours?|semaines?|mois|ans|heures?|fois|días?|semanas?|meses|años|horas?|veces)\b/gi;

function contentWords(folded: string): string[] {
  return folded.split(/[^a-z0-9]+/).filter((w) => w.length >= 5);
}

export function findOmissions(transcript: TranscriptPiece[], sections: NoteSectionDraft[], language: NoteLanguage): Omission[] {
  const lexicon = lexiconFor(language);
  const noteText = sections.map((s) => [s.text, ...s.sentences.map((x) => x.text)].join(" ")).join(" ");
  const note = ` ${fold(numbersToDigits(noteText, lexicon))} `;
  const noteWords = new Set(note.split(/[^a-z0-9]+/));
  const has = (phrase: string) => {
    const f = fold(phrase).trim();
    if (!f) return true;
    const escaped = f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(?<![a-z0-9])${escaped}(?![a-z0-9])`).test(note);
  };
  const sentences = transcriptSentences(transcript, language, lexicon);
  const out: Omission[] = [];
  const seen = new Set<string>();
  const add = (kind: OmissionKind, text: string, evidence: Sentence[]) => {
    const key = `${kind}:${fold(text)}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ kind, text, evidence: evidenceOf(evidence) });
  };
  const byTurn = new Map<number, Sentence[]>();
  for (const s of sentences) byTurn.set(s.turn, [...(byTurn.get(s.turn) ?? []), s]);

  for (const s of sentences) {
    const allergy = findAllergy(s.clean);
    if (allergy && !has(allergy)) add("allergy", allergy, [s]);
    // Numbers already reported with their medication or vital are not listed again.
    const reported = new Set<string>();
    if (!allergy) {
      for (const med of findMedications(s.clean)) {
        const dose = med.dose?.split(" ")[0];
        if (dose) reported.add(dose);
        if (!has(med.drug)) add("medication", [med.drug, med.dose, med.frequency].filter(Boolean).join(" "), [s]);
        else if (dose && !has(dose)) add("number", `${med.drug} ${med.dose}`, [s]);
      }
    }
    const vitals = findVitals(s.clean);
    for (const vital of vitals)
      if (!has(vital.value.split(" ")[0] ?? "")) add("vital", `${vitalLabel(language, vital.name)}: ${vital.value}`, [s]);
    if (vitals.length === 0) {
      for (const m of s.clean.matchAll(NUMBER_WITH_UNIT))
        if (!reported.has(m[1] ?? "") && !has(m[1] ?? "")) add("number", m[0], [s]);
    }
    for (const tooth of findTeeth(s.clean)) if (!has(tooth.tooth)) add("tooth", tooth.tooth, [s]);

    const doctor = isDoctorSpeech(s, lexicon);
    if (s.question && doctor) {
      const answer = (byTurn.get(s.turn + 1) ?? [])[0];
      if (answer && answer.role !== "doctor" && lexicon.answerNo.test(fold(answer.quote).replace(/^[\s,.]+/, ""))) {
        const missing = symptomsIn(s.folded, lexicon)
          .map(([phrase]) => phrase)
          .filter((phrase) => !has(phrase));
        if (missing.length > 0) add("negation", lexicon.write.denies(missing), [s, answer]);
      }
      continue;
    }
    if (!doctor && lexicon.negation.test(s.folded)) {
      const missing = symptomsIn(s.folded, lexicon)
        .map(([phrase]) => phrase)
        .filter((phrase) => !has(phrase));
      if (missing.length > 0) add("negation", lexicon.write.denies(missing), [s]);
    }
    if (doctor && !s.question && lexicon.cues.plan?.test(s.folded) && clinicalWeight(s, lexicon) >= 2) {
      const words = contentWords(s.folded);
      const covered = words.filter((w) => noteWords.has(w)).length;
      if (words.length > 0 && covered / words.length < 0.5) add("plan", s.clean, [s]);
    }
  }
  return out;
}
