import { z } from "zod";
import { NOTE_LANGUAGES } from "#app/services/notes/model.ts";
import { INVALID_TEXT, isStorableLine } from "#app/utils/storable-text.ts";

// Request shapes of the templates API (docs/api.md "Templates"). The template content itself is
// validated by the service (TemplateContentSchema) so its errors carry template_* codes.

export const TemplateLanguageQuerySchema = z.object({ language: z.enum(NOTE_LANGUAGES).optional() });

const ScopeSchema = z.enum(["organization", "personal"]).optional();

export const TemplatePostSchema = z.record(z.string(), z.unknown());

export const DuplicateSchema = z.strictObject({
  duplicate_of: z.string().min(1).max(100).refine(isStorableLine, { error: INVALID_TEXT }),
  language: z.enum(NOTE_LANGUAGES).optional(),
  name: z.string().max(120).refine(isStorableLine, { error: INVALID_TEXT }).optional(),
  scope: ScopeSchema,
});

export const ImportSchema = z.strictObject({ import: z.unknown(), scope: ScopeSchema });

export const CreateScopeSchema = z.object({ scope: ScopeSchema });
