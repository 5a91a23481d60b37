import { uploadAudioFile } from "#app/services/visits/upload.server.ts";
import type { Route } from "./+types/api-visit-audio";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { contentLength, handleVisitApi, storeOf } from "./visit-api.server.ts";

export const loader = () => methodNotAllowed("POST");

// POST /api/visits/:id/audio (raw body, Content-Type audio/*) → { id, status: "uploaded", audio }.
// Up to 500 MB, streamed to disk. To resume a large upload, send it as chunks instead (docs/api.md).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const result = await uploadAudioFile({
      ...args,
      orgId: org.id,
      visitId: params.id,
      contentType: request.headers.get("content-type"),
      contentLength: contentLength(request),
      body: request.body,
      store: storeOf(context),
    });
    return json(result);
  });
}
