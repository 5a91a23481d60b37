// What a sentence asserts, for contradiction detection (issue 27): findings present or absent
// (with their side), allergies (none, or to something), drug doses and frequencies. Each phrase
// is normalised to one id across sections and languages, so "Denies shortness of breath" and "A
// little short of breath" are about the same finding.
import { findMedications } from "../engines/extractive/facts.ts";
import { fold } from "../engines/extractive/lexicon.ts";
import type { NoteLanguage } from "../model.ts";
import {
  ALLERGY_TO,
  BODY_PARTS,
  CLAUSE_BREAK,
  DENIAL,
  DOSE_CHANGE,
  FINDING_WORD,
  FINDINGS,
  HYPOTHETICAL,
  NEGATION,
  NO_ALLERGY,
  perDay,
  QUALIFIED,
  QUESTION_LIKE,
  SIDES,
} from "./cues.ts";

export type Side = "left" | "right";

export interface FindingAssertion {
  finding: string;
  present: boolean;
  /** The absence is a denial ("denies", "nie", "niega"): the patient's word, not an examination's. */
  denied: boolean;
}

export interface SideAssertion {
  part: string;
  side: Side;
}

export interface DoseAssertion {
  drug: string;
  dose?: string;
  perDay?: number;
}

export interface Assertions {
  findings: FindingAssertion[];
  sides: SideAssertion[];
  /** "none" for no allergies, else the allergens named. */
  allergy: "none" | string[] | null;
  doses: DoseAssertion[];
}

const findingPatterns = new Map<NoteLanguage, [string, RegExp][]>();
function patternsFor(language: NoteLanguage): [string, RegExp][] {
  const cached = findingPatterns.get(language);
  if (cached) return cached;
  const out = Object.entries(FINDINGS).map(([id, words]): [string, RegExp] => [
    id,
    new RegExp(`(?<![\\p{L}])(?:${words[language].join("|")})(?![\\p{L}])`, "gu"),
  ]);
  findingPatterns.set(language, out);
  return out;
}
const partPatterns = new Map<NoteLanguage, [string, RegExp][]>();
function partsFor(language: NoteLanguage): [string, RegExp][] {
  const cached = partPatterns.get(language);
  if (cached) return cached;
  const out = Object.entries(BODY_PARTS).map(([id, words]): [string, RegExp] => [id, new RegExp(`\\b(?:${words[language]})\\b`)]);
  partPatterns.set(language, out);
  return out;
}

/** The text from the last clause break before `at` up to `at`: where a negation of the word at `at` would be. */
function scopeBefore(folded: string, at: number, language: NoteLanguage): string {
  const before = folded.slice(0, at);
  let from = 0;
  for (const m of before.matchAll(CLAUSE_BREAK[language])) from = (m.index ?? 0) + m[0].length;
  return before.slice(from);
}

/**
 * Whether a negation in `scope` reaches its end: the words after the last negation cue, once the
 * other findings listed there are taken out ("denies chest pain, shortness of breath, or"), are a
 * few at most — "we do not have any blockages in his arteries responsible for the chest pain" does
 * not deny the chest pain. Tuned on ACI-Bench train.
 */
function negates(scope: string, language: NoteLanguage): boolean {
  const cue = new RegExp(NEGATION[language].source, "g");
  let end = -1;
  for (const m of scope.matchAll(cue)) end = (m.index ?? 0) + m[0].length;
  if (end < 0) return false;
  let gap = scope.slice(end);
  for (const [, re] of patternsFor(language)) gap = gap.replace(re, " ");
  return gap.split(/[^\p{L}\d']+/u).filter(Boolean).length <= MAX_NEGATION_GAP;
}
const MAX_NEGATION_GAP = 4;

export function findingsIn(folded: string, language: NoteLanguage): FindingAssertion[] {
  if (HYPOTHETICAL[language].test(folded) || QUALIFIED[language].test(folded) || QUESTION_LIKE[language].test(folded)) return [];
  const out: FindingAssertion[] = [];
  for (const [finding, re] of patternsFor(language)) {
    for (const m of folded.matchAll(re)) {
      const negated = negates(scopeBefore(folded, m.index ?? 0, language), language);
      // The whole sentence's denial verb ("Denies fever or cough") covers every finding it lists.
      out.push({ finding, present: !negated, denied: negated && DENIAL[language].test(folded.slice(0, m.index ?? 0)) });
      break;
    }
  }
  return out;
}

/**
 * A side claimed for a body part with a finding next to it ("right knee pain", "genou gauche
 * douloureux"), not a plain mention ("left knee normal") nor a long sentence naming both sides.
 */
export function sidesIn(folded: string, language: NoteLanguage): SideAssertion[] {
  if (HYPOTHETICAL[language].test(folded) || !FINDING_WORD[language].test(folded) || NEGATION[language].test(folded)) return [];
  const [left, right, both] = SIDES[language];
  if (both.test(folded) || (left.test(folded) && right.test(folded))) return [];
  const out: SideAssertion[] = [];
  for (const [part, re] of partsFor(language)) {
    const at = folded.search(re);
    if (at < 0) continue;
    // The side within three words of the part, and a finding word within forty characters of it.
    const near = folded.slice(Math.max(0, at - 30), at + 30);
    const side: Side | null = left.test(near) ? "left" : right.test(near) ? "right" : null;
    if (side && FINDING_WORD[language].test(folded.slice(Math.max(0, at - 40), at + 40))) out.push({ part, side });
  }
  return out;
}

export function allergyIn(folded: string, language: NoteLanguage, inAllergySection: boolean): Assertions["allergy"] {
  if (NO_ALLERGY[language].test(folded)) return "none";
  const named = ALLERGY_TO[language].exec(folded);
  if (named?.[1]) return [named[1].split(/\s+(?:and|with|which|that|et|qui|y|que|con)\s+|,/)[0]?.trim() ?? named[1]];
  // An allergies section lists allergens without saying "allergic to" ("Penicillin (rash)").
  if (inAllergySection && /\p{L}{3,}/u.test(folded) && !/\b(?:none|aucune?|ninguna?|nada|rien)\b/.test(folded))
    return [
      folded
        .replace(/\(.*?\)/g, "")
        .replace(/[^\p{L}\- ]/gu, " ")
        .trim(),
    ];
  return null;
}

export function dosesIn(text: string, folded: string, language: NoteLanguage): DoseAssertion[] {
  if (DOSE_CHANGE[language].test(folded) || HYPOTHETICAL[language].test(folded)) return [];
  return findMedications(text).map((m) => {
    const out: DoseAssertion = { drug: m.drug };
    if (m.dose) out.dose = m.dose.replace(/\s+/g, " ");
    const perDayValue = m.frequency ? perDay(m.frequency) : null;
    if (perDayValue !== null) out.perDay = perDayValue;
    return out;
  });
}

export function assertionsOf(text: string, language: NoteLanguage, inAllergySection = false): Assertions {
  const folded = fold(text);
  return {
    findings: findingsIn(folded, language),
    sides: sidesIn(folded, language),
    allergy: allergyIn(folded, language, inAllergySection),
    doses: dosesIn(text, folded, language),
  };
}
