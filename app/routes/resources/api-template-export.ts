import { exportTemplate } from "#app/services/notes/templates/templates.server.ts";
import type { Route } from "./+types/api-template-export";
import { requireApiOrg } from "./org-api.server.ts";
import { TemplateLanguageQuerySchema } from "./template-api-schema.ts";
import { handleVisitApi, readQuery } from "./visit-api.server.ts";

/** A file name that is safe in Content-Disposition whatever the template is called. */
function fileName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .toLowerCase()
    .slice(0, 60);
  return `${slug || "template"}.murmur-template.json`;
}

// GET /api/templates/:id/export?language= → the {format: "murmur-template", version: 1, template} document.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { language } = readQuery(request, TemplateLanguageQuerySchema);
    const document = await exportTemplate({ ...args, orgId: org.id, templateId: params.id, language });
    return new Response(`${JSON.stringify(document, null, 2)}\n`, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${fileName(document.template.name)}"`,
        "Cache-Control": "no-store",
      },
    });
  });
}
