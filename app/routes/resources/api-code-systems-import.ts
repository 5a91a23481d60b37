import { z } from "zod";
import { ImportRowsError, importCodeSystem, MAX_IMPORT_BYTES } from "#app/services/coding/import/import.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import type { Route } from "./+types/api-code-systems-import";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { invalidInput, json, requireApiOrg } from "./org-api.server.ts";
import { contentLength, handleVisitApi } from "./visit-api.server.ts";

const FieldsSchema = z.object({
  system: z.enum(["cpt", "cdt", "hcpcs"]),
  version: z.string().regex(/^[0-9]{4}(-[0-9]{2})?$/, "a year such as 2026, or 2026-01"),
  preview: z.enum(["true", "false", "1", "0"]).optional(),
});

export const loader = () => methodNotAllowed("POST");

// POST /api/code-systems/import (multipart: system, version, file, preview?) → 200 preview, 201 imported,
// 422 invalid_rows { rows, errors: [{ line, code, error }] } with nothing imported (owners and admins).
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
      throw new AppError(415, "unsupported_media_type", "Send the file as multipart/form-data");
    }
    const length = contentLength(request);
    // The whole body is read below: a missing or too large length is refused first.
    if (length === null) throw new AppError(411, "length_required", "Send a Content-Length");
    if (length > MAX_IMPORT_BYTES + 64 * 1024) throw new AppError(413, "file_too_large", "The file is larger than 10 MB");
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new AppError(400, "bad_multipart", "Could not read the multipart body");
    }
    const fields = FieldsSchema.safeParse({
      system: form.get("system"),
      version: form.get("version"),
      preview: form.get("preview") ?? undefined,
    });
    if (!fields.success) throw invalidInput(fields.error, "body");
    const file = form.get("file");
    if (!(file instanceof File)) throw new AppError(400, "file_required", "Attach the code file as `file`");
    try {
      const result = await importCodeSystem({
        ...args,
        orgId: org.id,
        system: fields.data.system,
        version: fields.data.version,
        file: new Uint8Array(await file.arrayBuffer()),
        preview: fields.data.preview === "true" || fields.data.preview === "1",
      });
      return json(result, "id" in result ? 201 : 200);
    } catch (error) {
      if (error instanceof ImportRowsError) return json({ code: error.code, message: error.message, ...error.report }, 422);
      throw error;
    }
  });
}
