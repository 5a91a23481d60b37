// Template placeholders ("blood pressure", "tooth number") filled only from facts said in the visit.
import type { NoteLanguage, NoteSentence } from "../../model.ts";
import { vitalLabel } from "./candidates.ts";
import { findAllergy, findMedications, findPerio, findTeeth, findVitals } from "./facts.ts";
import { fold } from "./lexicon.ts";
import type { Sentence } from "./sentences.ts";
import { evidenceOf } from "./write.ts";

type Finder = (s: Sentence, language: NoteLanguage) => string | null;

const VITAL_WORDS: [RegExp, string][] = [
  [/\b(?:blood pressure|bp|tension|presion)\b/, "blood_pressure"],
  [/\b(?:heart rate|pulse|pouls|frequence cardiaque|frecuencia cardiaca|pulso)\b/, "heart_rate"],
  [/\b(?:temperature|temperatura)\b/, "temperature"],
  [/\b(?:oxygen|spo2|saturation|saturacion)\b/, "oxygen_saturation"],
  [/\b(?:respiratory|respiratoire|respiratoria)\b/, "respiratory_rate"],
  [/\b(?:weight|poids|peso)\b/, "weight"],
];

const LOCAL_ANAESTHETICS = /^(?:lidoca|artica|novoca|septoca|marcaine|bupivaca|mepivaca|prilocaine|epinephrine)/;

/** `context` is the section's title and instructions: a dose in an anaesthesia section is an anaesthetic's. */
function finderFor(placeholder: string, context: string): Finder | null {
  const p = fold(placeholder);
  for (const [re, name] of VITAL_WORDS) {
    if (re.test(p)) return (s) => findVitals(s.clean).find((v) => v.name === name)?.value ?? null;
  }
  if (/tooth|teeth|dent|diente|pieza/.test(p))
    return (s) =>
      findTeeth(s.clean)
        .map((t) => t.tooth)
        .join(", ") || null;
  if (/pocket|probing|poche|sondage|bolsa|sondaje|depth|profondeur|profundidad/.test(p))
    return (s) => {
      const perio = findPerio(s.clean);
      return perio && perio.depthsMm.length > 0 ? `${perio.depthsMm.join(", ")} mm` : null;
    };
  if (/medication|medicament|medicamento|drug|dose|posologie|dosis/.test(p)) {
    const anaesthesia = /anesth|anaesth|anestes/.test(fold(context));
    return (s) =>
      findMedications(s.clean)
        .filter((m) => !anaesthesia || LOCAL_ANAESTHETICS.test(fold(m.drug)))
        .map((m) => [m.drug, m.dose, m.frequency].filter(Boolean).join(" "))
        .join(", ") || null;
  }
  if (/allerg/.test(p)) return (s) => findAllergy(s.clean);
  return null;
}

export function fillPlaceholders(
  placeholders: string[],
  sentences: Sentence[],
  language: NoteLanguage,
  context = "",
): NoteSentence[] {
  const out: NoteSentence[] = [];
  for (const placeholder of placeholders) {
    const finder = finderFor(placeholder, context);
    if (!finder) continue;
    for (const s of sentences) {
      const value = finder(s, language);
      if (!value) continue;
      const vital = VITAL_WORDS.find(([re]) => re.test(fold(placeholder)));
      const label = vital ? vitalLabel(language, vital[1]) : placeholder.charAt(0).toUpperCase() + placeholder.slice(1);
      out.push({ text: `${label}: ${value}.`, evidence: evidenceOf([s]), supported: true, source: "transcript" });
      break;
    }
  }
  return out;
}
