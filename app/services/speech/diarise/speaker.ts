/** Who said a transcript segment (issue 26). null: not known (an import, or one voice only). */
export const SPEAKER_ROLES = ["clinician", "patient", "other"] as const;
export type SpeakerRole = (typeof SPEAKER_ROLES)[number];

export function isSpeakerRole(value: unknown): value is SpeakerRole {
  return typeof value === "string" && (SPEAKER_ROLES as readonly string[]).includes(value);
}
