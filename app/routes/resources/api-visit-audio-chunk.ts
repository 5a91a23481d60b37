import { acceptChunk, parseSeq, parseSha256 } from "#app/services/visits/chunks.server.ts";
import type { Route } from "./+types/api-visit-audio-chunk";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { contentLength, handleVisitApi, storeOf } from "./visit-api.server.ts";

export const loader = () => methodNotAllowed("PUT");

// PUT /api/visits/:id/audio/chunks/:seq (raw bytes, x-chunk-sha256) → { seq, acknowledged, duplicate }.
// Idempotent; the body is streamed to disk with a 10 MB limit, never buffered.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const seq = parseSeq(params.seq);
    const claimedSha256 = parseSha256(request.headers.get("x-chunk-sha256"));
    const ack = await acceptChunk({
      ...args,
      orgId: org.id,
      visitId: params.id,
      seq,
      claimedSha256,
      contentLength: contentLength(request),
      body: request.body,
      store: storeOf(context),
    });
    return json(ack);
  });
}
