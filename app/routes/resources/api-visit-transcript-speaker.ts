import { z } from "zod";
import { SPEAKER_ROLES } from "#app/services/speech/diarise/speaker.ts";
import { setSegmentSpeaker } from "#app/services/visits/transcript-speakers.server.ts";
import type { Route } from "./+types/api-visit-transcript-speaker";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

const SpeakerChangeSchema = z.strictObject({
  base_version: z.number().int().min(1).max(100_000),
  segment: z.number().int().min(0).max(100_000),
  speaker: z.enum(SPEAKER_ROLES),
});

export const loader = () => methodNotAllowed("POST");

// POST /api/visits/:id/transcript/speaker { base_version, segment, speaker } → 201 { id, version, unchanged }:
// the segment's speaker set by hand, as a new transcript version (issue 26).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const body = await readJsonLimited(request, SpeakerChangeSchema, maxJsonBytes(context));
    const result = await setSegmentSpeaker({
      ...args,
      orgId: org.id,
      visitId: params.id,
      change: { baseVersion: body.base_version, segment: body.segment, speaker: body.speaker },
    });
    return json(result, result.unchanged ? 200 : 201);
  });
}
