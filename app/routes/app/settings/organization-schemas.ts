import { z } from "zod";
import { ORG_PMS } from "#app/db/schema.ts";
import { CODING_PROFILES } from "#app/services/coding/profile.ts";
import { AUDIO_RETENTION_MAX_DAYS, AUDIO_RETENTION_MIN_DAYS } from "#app/services/visits/retention.ts";
import { accentIsReadable, DEFAULT_ACCENT } from "#app/utils/accent.ts";
import { INVALID_TEXT, isStorableLine } from "#app/utils/storable-text.ts";

/**
 * Regions the Organisation page offers (issue 4 is silent on the list): the markets Murmur sells in,
 * plus "other". The column is free text (0003_organizations.sql, default 'us'), so a value set
 * through the API outside this list stays selectable and valid for that organisation.
 */
export const ORG_REGIONS = ["us", "ca", "eu", "uk", "au", "other"] as const;

/** IANA zones the server knows; "UTC" (the column default) is not in Intl's canonical list. */
export function supportedTimeZones(): string[] {
  return ["UTC", ...Intl.supportedValuesOf("timeZone")];
}

/** The choices shown for a select: the fixed list, plus the organisation's current value if it is outside it. */
export function withCurrent(choices: readonly string[], current: string): string[] {
  return choices.includes(current) ? [...choices] : [current, ...choices];
}

/** Both forms of Settings → Organisation; `current` keeps the organisation's existing values valid. */
export function organizationActionSchema(current: { timezone: string; region: string }) {
  const timeZones = new Set(withCurrent(supportedTimeZones(), current.timezone));
  const regions = new Set(withCurrent(ORG_REGIONS, current.region));
  return z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal("update"),
      name: z.string().trim().min(1, "name_required").max(200, "name_too_long").refine(isStorableLine, { error: INVALID_TEXT }),
      timezone: z.string().refine((value) => timeZones.has(value), "invalid_timezone"),
      region: z.string().refine((value) => regions.has(value), "invalid_region"),
      pms: z.enum(ORG_PMS, "invalid_pms"),
      // Issue 5 "Storage": whole days, 0–365; an empty field is not 0. Absent (an older form) = unchanged.
      audio_retention_days: z
        .string()
        .trim()
        .regex(/^\d{1,3}$/, "invalid_retention")
        .transform(Number)
        .refine((days) => days >= AUDIO_RETENTION_MIN_DAYS && days <= AUDIO_RETENTION_MAX_DAYS, "invalid_retention")
        .optional(),
      // Issue 13: the organisation's code systems. Absent (an older form) = unchanged.
      coding_profile: z.enum(CODING_PROFILES, "invalid_coding_profile").optional(),
      // Issue 11: the colour input always posts a value; Murmur's own colour is stored as null.
      accent_color: z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^#[0-9a-f]{6}$/, "invalid_accent")
        .refine(accentIsReadable, "accent_low_contrast")
        .transform((hex) => (hex === DEFAULT_ACCENT ? null : hex))
        .optional(),
    }),
    z.object({ intent: z.literal("leave") }),
  ]);
}
