import { exportTemplate } from "#app/services/notes/templates/templates.server.ts";
import { fileResponseHeaders } from "#app/utils/file-response.ts";
import type { Route } from "./+types/api-template-export";
import { requireApiOrg } from "./org-api.server.ts";
import { TemplateLanguageQuerySchema } from "./template-api-schema.ts";
import { handleVisitApi, readQuery } from "./visit-api.server.ts";

// GET /api/templates/:id/export?language= → the {format: "murmur-template", version: 1, template} document.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { language } = readQuery(request, TemplateLanguageQuerySchema);
    const document = await exportTemplate({ ...args, orgId: org.id, templateId: params.id, language });
    // The template's name is user text: file-response.ts makes it a safe (RFC 6266/5987) file name.
    const headers = fileResponseHeaders({
      contentType: "application/json; charset=utf-8",
      disposition: "attachment",
      name: document.template.name,
      extension: "murmur-template.json",
    });
    return new Response(`${JSON.stringify(document, null, 2)}\n`, { headers });
  });
}
