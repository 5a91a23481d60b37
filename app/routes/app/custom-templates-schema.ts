import { z } from "zod";
import { NOTE_LANGUAGES } from "#app/services/notes/model.ts";
import { isStorableLine } from "#app/utils/storable-text.ts";

// The /custom-templates forms. Each message is an error code the page translates
// (templates:errors.<code>); the template's content is validated by the service.

const TemplateIdSchema = z
  .string({ error: "template_not_found" })
  .min(1, { error: "template_not_found" })
  .max(100, { error: "template_not_found" });
const ScopeSchema = z.enum(["organization", "personal"]).catch("personal");
export const PageLanguageSchema = z.enum(NOTE_LANGUAGES);

/** An import file bigger than any valid template could be. */
export const IMPORT_MAX_BYTES = 512 * 1024;

/** The editor posts its state as one JSON field (the section list is built in the browser). */
const ContentField = z
  .string({ error: "template_invalid" })
  .max(IMPORT_MAX_BYTES, { error: "template_invalid" })
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "template_invalid" });
      return z.NEVER;
    }
  });

export const TemplateFormSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("duplicate"),
      template_id: TemplateIdSchema,
      language: PageLanguageSchema.catch("en"),
      name: z.string().max(120).refine(isStorableLine, { error: "template_name_invalid" }).optional(),
      scope: ScopeSchema,
    }),
    z.object({ intent: z.literal("delete"), template_id: TemplateIdSchema }),
    z.object({ intent: z.literal("create"), template: ContentField, scope: ScopeSchema }),
    z.object({ intent: z.literal("save"), template_id: TemplateIdSchema, template: ContentField }),
    z.object({ intent: z.literal("import"), scope: ScopeSchema }),
    z.object({ intent: z.literal("preview"), template: ContentField }),
  ],
  { error: "invalid_input" },
);
