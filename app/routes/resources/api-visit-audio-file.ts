import { openVisitAudio } from "#app/services/visits/audio-playback.server.ts";
import { FILE_SECURITY_HEADERS, fileResponseHeaders } from "#app/utils/file-response.ts";
import type { Route } from "./+types/api-visit-audio-file";
import { requireApiOrg } from "./org-api.server.ts";
import { withOrgFromQuery } from "./org-query.server.ts";
import { handleVisitApi, storeOf } from "./visit-api.server.ts";

export { action } from "./method-not-allowed.ts";

// GET /api/visits/:id/audio/file → the recording, with Range support (206) so a player can seek.
// Served as the type its bytes show (never the uploader's label), with the file security headers.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(withOrgFromQuery(request), context);
    const audio = await openVisitAudio({
      ...args,
      orgId: org.id,
      visitId: params.id,
      store: storeOf(context),
      rangeHeader: request.headers.get("range"),
      head: request.method === "HEAD",
    });
    if (audio.range.kind === "unsatisfiable") {
      return Response.json(
        { code: "range_not_satisfiable", message: "The requested range is outside the audio" },
        {
          status: 416,
          headers: {
            "Accept-Ranges": "bytes",
            "Content-Range": `bytes */${audio.size}`,
            "Cache-Control": "no-store",
            ...FILE_SECURITY_HEADERS,
          },
        },
      );
    }
    const headers = fileResponseHeaders({
      contentType: audio.contentType,
      disposition: audio.disposition,
      name: audio.name,
      extension: audio.extension,
      // no-transform: a compressed body would no longer match the byte ranges.
      cacheControl: "no-store, no-transform",
    });
    headers.set("Accept-Ranges", "bytes");
    if (audio.range.kind === "partial") {
      const { start, end } = audio.range;
      headers.set("Content-Range", `bytes ${start}-${end}/${audio.size}`);
      headers.set("Content-Length", String(end - start + 1));
      return new Response(audio.body, { status: 206, headers });
    }
    headers.set("Content-Length", String(audio.size));
    return new Response(audio.body, { status: 200, headers });
  });
}
