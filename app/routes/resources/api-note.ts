import { noteErrors } from "#app/services/notes/errors.server.ts";
import { SaveNoteSchema } from "#app/services/notes/note-schemas.ts";
import { getNote, saveDraft } from "#app/services/notes/notes.server.ts";
import type { Route } from "./+types/api-note";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

// GET /api/notes/:id → the note: sections with sentences and evidence, omissions, versions, hash;
// its `version` also as the ETag.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const note = await getNote({ ...args, orgId: org.id, noteId: params.id });
    const res = json(note);
    res.headers.set("ETag", `"${note.version}"`);
    return res;
  });
}

// PUT /api/notes/:id { sections: [{ key, text }], version } (or If-Match: "<version>") → the note: a
// draft edit (a new draft_edit version). Without a version 428 version_required; a stale one 409
// version_conflict — two people editing one draft no longer lose an edit silently (issue 25).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("GET, HEAD, PUT");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { sections, version } = await readJsonLimited(request, SaveNoteSchema, maxJsonBytes(context));
    const expectedVersion = ifMatchVersion(request.headers.get("if-match")) ?? version;
    if (expectedVersion === undefined) throw noteErrors.versionRequired();
    const note = await saveDraft({ ...args, orgId: org.id, noteId: params.id, sections, expectedVersion });
    const res = json(note);
    res.headers.set("ETag", `"${note.version}"`);
    return res;
  });
}

/** `"3"`, `W/"3"` or `3` → 3; anything else (absent, `*`, a list) → undefined. */
function ifMatchVersion(header: string | null): number | undefined {
  const m = header?.trim().match(/^(?:W\/)?"?(\d{1,9})"?$/);
  return m ? Number(m[1]) : undefined;
}
