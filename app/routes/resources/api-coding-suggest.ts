import { z } from "zod";
import { runtimeContext } from "#app/runtime/context.ts";
import { CODE_SYSTEMS } from "#app/services/coding/codes/table.ts";
import { CODING_LIMITS, codingLimitErrors } from "#app/services/coding/limits.ts";
import { suggestForText } from "#app/services/coding/suggest.server.ts";
import { INVALID_TEXT, isStorableText } from "#app/utils/storable-text.ts";
import type { Route } from "./+types/api-coding-suggest";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

// The text's length is checked after parsing (413 text_too_long, docs/operations.md "Input
// limits"); the body itself is capped by bytes while it is read.
const SuggestSchema = z.strictObject({
  text: z.string().min(1).refine(isStorableText, { error: INVALID_TEXT }),
  language: z.enum(["en", "fr", "es"]).default("en"),
  code_systems: z.array(z.enum(CODE_SYSTEMS)).min(1).max(4).default(["icd10cm"]),
  limit: z.int().min(1).max(50).optional(),
  min_confidence: z.number().min(0).max(1).optional(),
});

export const loader = () => methodNotAllowed("POST");

// POST /api/coding/suggest { text, language?, code_systems?, limit?, min_confidence? } → { suggestions } (owners and clinicians; nothing stored).
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const body = await readJsonLimited(request, SuggestSchema, maxJsonBytes(context));
    if (body.text.length > CODING_LIMITS.suggestText) throw codingLimitErrors.textTooLong(CODING_LIMITS.suggestText);
    const env = context.get(runtimeContext).env;
    return json(
      await suggestForText(
        { ...args, orgId: org.id, env },
        {
          text: body.text,
          language: body.language,
          systems: body.code_systems,
          ...(body.limit !== undefined ? { limit: body.limit } : {}),
          ...(body.min_confidence !== undefined ? { minConfidence: body.min_confidence } : {}),
        },
      ),
    );
  });
}
