import { z } from "zod";
import { importTranscript } from "#app/services/visits/transcripts.server.ts";
import { INVALID_TEXT, isStorableText } from "#app/utils/storable-text.ts";
import type { Route } from "./+types/api-visit-transcript";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

const ImportTranscriptSchema = z.strictObject({
  text: z.string().trim().min(1).max(2_000_000).refine(isStorableText, { error: INVALID_TEXT }),
});

export const loader = () => methodNotAllowed("POST");

// POST /api/visits/:id/transcript { text } → 201 { id, version }: a new version, engine "import".
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { text } = await readJsonLimited(request, ImportTranscriptSchema, maxJsonBytes(context));
    return json(await importTranscript({ ...args, orgId: org.id, visitId: params.id, text }), 201);
  });
}
