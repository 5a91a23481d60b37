import { z } from "zod";
import { finishChunkedUpload } from "#app/services/visits/finish.server.ts";
import type { Route } from "./+types/api-visit-audio-finish";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, hasNoNul, NO_NUL, readJsonLimited, storeOf } from "./visit-api.server.ts";

const MAX_CHUNKS = 100_000;
/** One SHA-256 per chunk for 100 000 chunks fits (about 6.7 MB). */
const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

const AudioManifestSchema = z.strictObject({
  chunks: z.number().int().min(1).max(MAX_CHUNKS),
  bytes: z.number().int().min(0).optional(),
  duration_ms: z.number().int().min(0).optional(),
  chunk_sha256: z
    .array(z.string().regex(/^[0-9a-fA-F]{64}$/))
    .max(MAX_CHUNKS)
    .optional(),
  mime_type: z.string().max(200).refine(hasNoNul, NO_NUL).optional(),
  segments: z
    .array(z.strictObject({ start_ms: z.number().min(0), end_ms: z.number().min(0) }))
    .max(10_000)
    .optional(),
});

export const loader = () => methodNotAllowed("POST");

// POST /api/visits/:id/audio/finish { chunks, bytes?, duration_ms?, chunk_sha256?, mime_type?, segments? }
// → { id, status: "uploaded", audio }; 409 chunks_missing { missing: [...] } when chunks are absent.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const manifest = await readJsonLimited(request, AudioManifestSchema, MAX_MANIFEST_BYTES);
    return json(await finishChunkedUpload({ ...args, orgId: org.id, visitId: params.id, manifest, store: storeOf(context) }));
  });
}
