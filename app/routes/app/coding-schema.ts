import { z } from "zod";
import { NOTE_LANGUAGES } from "#app/services/notes/model.ts";
import { NOTE_LIMITS } from "#app/services/notes/note-schemas.ts";
import { INVALID_TEXT, isStorableLine, isStorableText } from "#app/utils/storable-text.ts";

// The note editor's form posts (app/routes/app/coding.tsx). Messages are stable error codes.

const id = z.uuid({ error: "note_not_found" });
const sectionText = z
  .string()
  .max(NOTE_LIMITS.sectionText, { error: "invalid_input" })
  .refine(isStorableText, { error: INVALID_TEXT });

export const GenerateFormSchema = z.object({
  visit_id: z.uuid({ error: "visit_not_found" }),
  template_id: z
    .string()
    .trim()
    .min(1, { error: "template_not_found" })
    .max(100, { error: "template_not_found" })
    .refine(isStorableLine, { error: INVALID_TEXT }),
  language: z
    .enum(NOTE_LANGUAGES)
    .optional()
    .or(z.literal("").transform(() => undefined)),
});

export const NoteFormSchema = z.object({
  note_id: id,
  sections: z
    .array(z.object({ key: z.string().regex(/^[a-z0-9_]{1,40}$/, { error: "unknown_section" }), text: sectionText }))
    .max(NOTE_LIMITS.sections),
});

export const AmendFormSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, { error: "invalid_input" })
    .max(NOTE_LIMITS.reason, { error: "invalid_input" })
    .refine(isStorableText, { error: INVALID_TEXT }),
});

export const RateFormSchema = z.object({
  rating: z.coerce
    .number({ error: "invalid_input" })
    .int({ error: "invalid_input" })
    .min(1, { error: "invalid_input" })
    .max(5, { error: "invalid_input" }),
  comment: z
    .string()
    .trim()
    .max(NOTE_LIMITS.comment, { error: "invalid_input" })
    .refine(isStorableText, { error: INVALID_TEXT })
    .optional()
    .transform((v) => v || null),
});

/** The `section.<key>` fields of a form, in order. */
export function sectionsOfForm(form: FormData): { key: string; text: string }[] {
  const out: { key: string; text: string }[] = [];
  for (const [name, value] of form) {
    if (name.startsWith("section.") && typeof value === "string")
      out.push({ key: name.slice("section.".length), text: value.replace(/\r\n/g, "\n") });
  }
  return out;
}

/** The checks panel's "Acknowledge" form (issue 27): one check, an optional reason. */
export const AcknowledgeFormSchema = z.object({
  check_id: z.uuid({ error: "check_not_found" }),
  reason: z
    .string()
    .trim()
    .max(NOTE_LIMITS.reason, { error: "invalid_input" })
    .refine(isStorableText, { error: INVALID_TEXT })
    .optional()
    .transform((v) => v || null),
});
