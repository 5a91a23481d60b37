import { fold } from "../../text.ts";

// Allergy history (ADR 43): "Allergies: penicillin (rash)" says the patient is allergic to
// penicillin — Z88.0 Allergy status to penicillin — not that a rash is present (R21). Inside an
// allergy statement the reaction words are never coded; the allergen becomes its allergy-status code.
// Allergen words are folded stems in en/fr/es ("pénicilline", "penicilina" → penicil).

const ALLERGENS: Array<[RegExp, string]> = [
  [/\b(?:penicil\w*|amoxicil\w*|ampicil\w*|augmentin|pcn|piperacil\w*|oxacil\w*|dicloxacil\w*)/g, "Z88.0"],
  [/\b(?:sulfa|sulpha|sulfonamide?s?|sulfamid\w*|sulfamethoxazol\w*|bactrim|cotrimoxazol\w*)\b/g, "Z88.2"],
  [
    /\b(?:cephalosporin\w*|cefalospor\w*|cephalexin|cefalexin\w*|ceftriaxon\w*|cefuroxim\w*|macrolide?s?|erythromycin\w*|azithromycin\w*|clarithromycin\w*|tetracyclin\w*|doxycyclin\w*|vancomycin\w*|clindamycin\w*|quinolon\w*|ciprofloxacin\w*|levofloxacin\w*|gentamicin\w*|antibiotic\w*|antibiotique\w*|antibiotico\w*)/g,
    "Z88.1",
  ],
  [/\b(?:anesthe\w*|anaesthe\w*|lidocain\w*|novocain\w*)/g, "Z88.4"],
  [/\b(?:codein\w*|morphin\w*|opioid\w*|opiate?s?|opiace\w*|oxycodon\w*|hydrocodon\w*|tramadol|narcotic\w*)/g, "Z88.5"],
  [/\b(?:aspirin\w*|nsaids?|ains|aine|ibuprofen\w*|naproxen\w*|acetaminophen|paracetamol|analgesic\w*|analgesique\w*)/g, "Z88.6"],
  [/\b(?:vaccin\w*|vacuna\w*)/g, "Z88.7"],
  [/\b(?:peanuts?|arachides?|cacahuetes?|cacahuates?|mani)\b/g, "Z91.010"],
  [/\b(?:shellfish|seafood|fruits de mer|crustaces?|mariscos?)\b/g, "Z91.013"],
  [/\b(?:latex)\b/g, "Z91.040"],
  [/\b(?:contrast|iodine|iode|yodo|iodinated)\b/g, "Z91.041"],
  [/\b(?:bees?|abeilles?|abejas?|wasps?|guepes?|avispas?)\b/g, "Z91.030"],
];

const CUE = /\b(?:allerg\w*|alerg\w*|intoleran\w*)/;

export interface AllergenMention {
  code: string;
  start: number;
  end: number;
}

/**
 * The allergens a sentence names when it is an allergy statement: inside an Allergies section, or
 * with an allergy cue word in the sentence ("allergic to", "allergie à", "alergia a"). null when the
 * sentence is not an allergy statement (its mentions are coded as usual).
 */
export function allergyStatement(sentence: string, inAllergySection: boolean): AllergenMention[] | null {
  const folded = fold(sentence);
  if (!inAllergySection && !CUE.test(folded)) return null;
  const out: AllergenMention[] = [];
  for (const [re, code] of ALLERGENS) {
    for (const m of folded.matchAll(re)) out.push({ code, start: m.index, end: m.index + m[0].length });
  }
  // A cue without a known allergen ("allergic rhinitis", "seasonal allergies") is a condition, coded as usual.
  if (!inAllergySection && out.length === 0) return null;
  return out;
}
