// Each organisation's code systems (issue 13 "Code sets"), chosen in Settings → Organisation and kept
// in organizations.settings.coding_profile: medical = ICD-10-CM + CPT/HCPCS, dental = ICD-10-CM + CDT.
// Procedure lines come from the profile's licensed system, when the organisation imported it.
import type { CodeSystem } from "./codes/table.ts";

export const CODING_PROFILES = ["medical", "dental"] as const;
export type CodingProfile = (typeof CODING_PROFILES)[number];

export const PROFILE_SYSTEMS: Record<CodingProfile, readonly CodeSystem[]> = {
  medical: ["icd10cm", "cpt", "hcpcs"],
  dental: ["icd10cm", "cdt"],
};

export function isCodingProfile(value: unknown): value is CodingProfile {
  return value === "medical" || value === "dental";
}

/** The organisation's profile; missing or unknown (a hand-edited row) is medical. */
export function codingProfile(settings: Record<string, unknown> | null | undefined): CodingProfile {
  const value = settings?.coding_profile;
  return isCodingProfile(value) ? value : "medical";
}
