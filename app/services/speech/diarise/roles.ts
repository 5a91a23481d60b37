import { normaliseText } from "#app/services/speech/text-normalise.ts";

/**
 * The role model (scripts/build-role-model.ts → role-model.json): per word and word pair, the log
 * ratio of how often clinicians and patients say it in role-tagged dialogues (naive Bayes,
 * add-one smoothing). Positive: a clinician's phrase ("any chest pain", "how long"); negative: a
 * patient's ("i have been", "my").
 */
export interface RoleModel {
  /** Log P(clinician) − log P(patient) per turn, before any words. */
  prior: number;
  /** "word" or "word word" → log ratio (natural log, 2 decimals). */
  features: Record<string, number>;
}

/** Clinician-versus-patient log odds of one stretch of speech from its words alone (0: no evidence). */
export function textRoleScore(model: RoleModel, text: string): number {
  const words = normaliseText(text).split(" ").filter(Boolean);
  let score = 0;
  for (let i = 0; i < words.length; i++) {
    score += model.features[words[i] as string] ?? 0;
    if (i > 0) score += model.features[`${words[i - 1]} ${words[i]}`] ?? 0;
  }
  return score;
}
