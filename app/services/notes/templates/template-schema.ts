import { z } from "zod";
import { isStorableText } from "#app/utils/storable-text.ts";
import { AP_LAYOUTS, NOTE_LANGUAGES, type NoteTemplate, SECTION_KINDS, type TemplateSection } from "../model.ts";

// The one validation of a template's content, shared by the service (create, update, import),
// the API and the editor. Isomorphic (no server imports). Each check's message is a stable
// error code (docs/api.md "Templates"), translated in the editor as templates:errors.<code>.

export const TEMPLATE_LIMITS = {
  sections: { min: 1, max: 40 },
  name: 120,
  description: 1000,
  title: 120,
  fixedText: 4000,
  instructions: 2000,
  placeholders: 30,
  placeholder: 100,
} as const;

export const SECTION_KEY_PATTERN = /^[a-z0-9_]{1,40}$/;

/** PostgreSQL text cannot hold NUL, and a template never needs control characters other than newlines and tabs (utils/storable-text.ts). */
const text = (max: number, code: string) =>
  z.string({ error: code }).max(max, { error: code }).refine(isStorableText, { error: code });
const line = (max: number, code: string) => text(max, code).trim().min(1, { error: code });

export const TemplateSectionSchema = z.object({
  key: z.string({ error: "template_section_key_invalid" }).regex(SECTION_KEY_PATTERN, { error: "template_section_key_invalid" }),
  title: line(TEMPLATE_LIMITS.title, "template_section_title_invalid"),
  kind: z.enum(SECTION_KINDS, { error: "template_section_kind_invalid" }),
  fixedText: text(TEMPLATE_LIMITS.fixedText, "template_text_too_long").optional(),
  placeholders: z
    .array(line(TEMPLATE_LIMITS.placeholder, "template_placeholder_invalid"), { error: "template_placeholder_invalid" })
    .max(TEMPLATE_LIMITS.placeholders, { error: "template_placeholder_invalid" })
    .optional(),
  instructions: text(TEMPLATE_LIMITS.instructions, "template_text_too_long").optional(),
  header: z.enum(["always", "with_content", "never"], { error: "template_section_option_invalid" }),
  style: z.enum(["bullets", "prose"], { error: "template_section_option_invalid" }),
  verbosity: z.enum(["concise", "standard", "detailed"], { error: "template_section_option_invalid" }),
  persistent: z.boolean({ error: "template_section_option_invalid" }),
  // Assessment and plan by problem or assessment then plan (issue 18); absent = by problem.
  layout: z.enum(AP_LAYOUTS, { error: "template_section_option_invalid" }).optional(),
});

/** What a person writes: everything but the id (a built-in's or a stored row's). */
export const TemplateContentSchema = z.object({
  name: line(TEMPLATE_LIMITS.name, "template_name_invalid"),
  language: z.enum(NOTE_LANGUAGES, { error: "template_language_invalid" }),
  description: text(TEMPLATE_LIMITS.description, "template_text_too_long").optional(),
  sections: z
    .array(TemplateSectionSchema, { error: "template_sections_count" })
    .min(TEMPLATE_LIMITS.sections.min, { error: "template_sections_count" })
    .max(TEMPLATE_LIMITS.sections.max, { error: "template_sections_count" })
    .refine((sections) => new Set(sections.map((s) => s.key)).size === sections.length, {
      error: "template_section_keys_duplicate",
    }),
});
export type TemplateContent = z.infer<typeof TemplateContentSchema>;

export const TEMPLATE_FORMAT = "murmur-template";
export const TEMPLATE_FORMAT_VERSION = 1;

/** The import/export document: versioned so a later format can still read version 1 files. */
export const TemplateDocumentSchema = z.object(
  {
    format: z.literal(TEMPLATE_FORMAT, { error: "template_format_unsupported" }),
    version: z.literal(TEMPLATE_FORMAT_VERSION, { error: "template_format_unsupported" }),
    template: TemplateContentSchema.extend({ based_on: z.string().max(100).optional() }),
  },
  { error: "template_format_unsupported" },
);
export type TemplateDocument = z.infer<typeof TemplateDocumentSchema>;

export const TEMPLATE_ERROR_CODES = [
  "template_invalid",
  "template_format_unsupported",
  "template_name_invalid",
  "template_language_invalid",
  "template_sections_count",
  "template_section_keys_duplicate",
  "template_section_key_invalid",
  "template_section_title_invalid",
  "template_section_kind_invalid",
  "template_section_option_invalid",
  "template_placeholder_invalid",
  "template_text_too_long",
] as const;
export type TemplateErrorCode = (typeof TEMPLATE_ERROR_CODES)[number];

export type TemplateValidation<T> =
  | { ok: true; value: T }
  | { ok: false; code: TemplateErrorCode; path: string; message: string };

/** Parses with `schema`, answering the first problem as one of TEMPLATE_ERROR_CODES and where it is. */
export function validateTemplate<S extends z.ZodType>(schema: S, input: unknown): TemplateValidation<z.infer<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const known = (TEMPLATE_ERROR_CODES as readonly string[]).includes(issue?.message ?? "");
  const code = (known ? issue?.message : "template_invalid") as TemplateErrorCode;
  const path = issue?.path.join(".") ?? "";
  return { ok: false, code, path, message: `${path || "template"}: ${code}` };
}

/** Drops empty optional fields so stored JSON and exports stay minimal and comparable. */
export function normalizeSections(sections: readonly TemplateSection[]): TemplateSection[] {
  return sections.map((s) => {
    const placeholders = s.placeholders?.filter((p) => p.trim() !== "");
    return {
      key: s.key,
      title: s.title,
      kind: s.kind,
      ...(s.fixedText?.trim() ? { fixedText: s.fixedText } : {}),
      ...(placeholders?.length ? { placeholders } : {}),
      ...(s.instructions?.trim() ? { instructions: s.instructions } : {}),
      header: s.header,
      style: s.style,
      verbosity: s.verbosity,
      persistent: s.persistent,
      // Only an assessment-and-plan section has a layout.
      ...(s.layout && s.kind === "assessment_plan" ? { layout: s.layout } : {}),
    };
  });
}

/** The export document of a template. */
export function templateDocument(template: NoteTemplate, basedOn?: string | null): TemplateDocument {
  return {
    format: TEMPLATE_FORMAT,
    version: TEMPLATE_FORMAT_VERSION,
    template: {
      name: template.name,
      language: template.language,
      ...(template.description ? { description: template.description } : {}),
      sections: normalizeSections(template.sections),
      ...(basedOn ? { based_on: basedOn } : {}),
    },
  };
}
