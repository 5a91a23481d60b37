import { deleteTemplate, getTemplate, updateTemplate } from "#app/services/notes/templates/templates.server.ts";
import type { Route } from "./+types/api-template";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, noContent, requireApiOrg } from "./org-api.server.ts";
import { TemplateLanguageQuerySchema, TemplatePostSchema } from "./template-api-schema.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited, readQuery } from "./visit-api.server.ts";

// GET /api/templates/:id?language= → the template with its sections (built-ins in `language`).
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { language } = readQuery(request, TemplateLanguageQuerySchema);
    return json(await getTemplate({ ...args, orgId: org.id, templateId: params.id, language }));
  });
}

// PUT /api/templates/:id {name, language, description, sections} → {id, copied};
// DELETE /api/templates/:id → 204 (archived).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, HEAD, PUT, DELETE");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const base = { ...args, orgId: org.id, templateId: params.id };
    if (request.method === "DELETE") {
      await deleteTemplate(base);
      return noContent();
    }
    const content = await readJsonLimited(request, TemplatePostSchema, maxJsonBytes(context));
    return json(await updateTemplate({ ...base, content }));
  });
}
