import { z } from "zod";
import { INVALID_TEXT, isStorableLine } from "#app/utils/storable-text.ts";

/** The start-a-visit form: consent must be ticked; an existing patient or a new name. */
export const StartVisitSchema = z
  .object({
    patient_id: z
      .uuid()
      .optional()
      .or(z.literal("").transform(() => undefined)),
    new_patient_name: z.string().trim().max(200).refine(isStorableLine, { error: INVALID_TEXT }).optional(),
    title: z.string().trim().max(200).refine(isStorableLine, { error: INVALID_TEXT }).default(""),
    language: z.enum(["en", "fr", "es"]),
    // Issue 29: the note's template, drafted when the transcript is ready ("" = the default).
    template_id: z
      .string()
      .max(100)
      .optional()
      .transform((v) => v || undefined),
    consent: z.literal("on", { error: "consent_required" }),
  })
  .refine((v) => v.patient_id || v.new_patient_name, { error: "patient_required" });
