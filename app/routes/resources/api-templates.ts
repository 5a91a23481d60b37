import type { z } from "zod";
import {
  createTemplate,
  duplicateTemplate,
  importTemplate,
  listTemplates,
} from "#app/services/notes/templates/templates.server.ts";
import type { Route } from "./+types/api-templates";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg, validationFailed } from "./org-api.server.ts";
import {
  CreateScopeSchema,
  DuplicateSchema,
  ImportSchema,
  TemplateLanguageQuerySchema,
  TemplatePostSchema,
} from "./template-api-schema.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited, readQuery } from "./visit-api.server.ts";

/** A body already read as JSON, checked against one request shape (400 validation_failed). */
function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw validationFailed(issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "Invalid request body");
}

// GET /api/templates?language= → built-ins, the organisation's templates and the caller's own.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { language } = readQuery(request, TemplateLanguageQuerySchema);
    return json(await listTemplates({ ...args, orgId: org.id, language }));
  });
}

// POST /api/templates: {name, language, sections, …} creates; {import: <document>} imports;
// {duplicate_of: id} copies a built-in or a visible template. → 201 {id}.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, HEAD, POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const body = await readJsonLimited(request, TemplatePostSchema, maxJsonBytes(context));
    const base = { ...args, orgId: org.id };
    if ("import" in body) {
      const input = parse(ImportSchema, body);
      return json(await importTemplate({ ...base, document: input.import, scope: input.scope }), 201);
    }
    if ("duplicate_of" in body) {
      const input = parse(DuplicateSchema, body);
      const name = input.name?.trim() || undefined;
      return json(
        await duplicateTemplate({ ...base, templateId: input.duplicate_of, language: input.language, name, scope: input.scope }),
        201,
      );
    }
    const { scope } = parse(CreateScopeSchema, body);
    const { scope: _, ...content } = body;
    return json(await createTemplate({ ...base, content, scope }), 201);
  });
}
