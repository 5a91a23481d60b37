import { z } from "zod";
import { PATIENT_SEXES } from "#app/db/schema.ts";
import { INVALID_TEXT, isStorableLine, isStorableText } from "#app/utils/storable-text.ts";
import type { CalendarDay } from "#app/utils/zoned-time.ts";

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** The dashboard's query: search text and one page number per list (bad values are a 404 page). */
export const DashboardQuerySchema = z.object({
  q: z.string().max(200).refine(isStorableText, { error: INVALID_TEXT }).default(""),
  page: z.preprocess(blank, z.coerce.number().int().min(1).max(10_000).default(1)),
  visits_page: z.preprocess(blank, z.coerce.number().int().min(1).max(10_000).default(1)),
});

/** The "New patient" form; each error message is a stable code the page translates. */
export const NewPatientFormSchema = z.object({
  display_name: z
    .string({ error: "patient_name_required" })
    .trim()
    .min(1, "patient_name_required")
    .max(200, "patient_name_too_long")
    .refine(isStorableLine, { error: INVALID_TEXT }),
  date_of_birth: z.preprocess(
    blank,
    z.iso
      .date({ error: "invalid_date_of_birth" })
      .refine((v) => v >= "1900-01-01", "invalid_date_of_birth")
      .optional(),
  ),
  sex: z.preprocess(blank, z.enum(PATIENT_SEXES, { error: "invalid_input" }).optional()),
  external_id: z.preprocess(
    blank,
    z.string().trim().max(100, "external_id_too_long").refine(isStorableLine, { error: INVALID_TEXT }).optional(),
  ),
  notes: z.string().max(10_000, "notes_too_long").refine(isStorableText, { error: INVALID_TEXT }).default(""),
});

/**
 * The form as the action checks it: a date of birth is a calendar day, at the latest `today`, the
 * organisation's today (todayInZone), not the server's nor UTC's: a baby born just after local
 * midnight is not "in the future", and tomorrow is refused even where UTC already reached it.
 */
export const newPatientFormSchema = (today: CalendarDay) =>
  NewPatientFormSchema.refine((f) => !f.date_of_birth || f.date_of_birth <= today, {
    path: ["date_of_birth"],
    error: "invalid_date_of_birth",
  });

export type NewPatientForm = z.infer<typeof NewPatientFormSchema>;
