import type { RouterContextProvider } from "react-router";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { MANAGER_ROLES, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import type { NoteLanguage } from "../model.ts";
import { templateErrors } from "./errors.server.ts";
import {
  createTemplate,
  deleteTemplate,
  duplicateTemplate,
  getTemplate,
  importTemplate,
  listTemplates,
  type TemplateDetails,
  type TemplateSummary,
  updateTemplate,
} from "./templates.server.ts";

// The /custom-templates page's side of the templates service: the current organisation and user
// from the server context (never the form), one service call per intent.

export interface TemplatesPage {
  templates: TemplateSummary[];
  selected: TemplateDetails | null;
  /** Owners and admins create, edit and delete organisation templates. */
  canManage: boolean;
  language: NoteLanguage;
}

type PageArgs = OrgServiceArgs & { orgId: string };

function argsOf(context: Readonly<RouterContextProvider>, request: Request): PageArgs & { canManage: boolean } {
  const { user, org, role } = requireOrg(context);
  return {
    db: context.get(runtimeContext).db,
    actor: { userId: user.id },
    orgId: org.id,
    meta: { ip: context.get(requestInfoContext).clientIp, userAgent: request.headers.get("user-agent") },
    canManage: MANAGER_ROLES.includes(role),
  };
}

/** The list, and the template named by `?id=` when there is one (a stale id shows the list alone). */
export async function loadTemplatesPage(
  context: Readonly<RouterContextProvider>,
  request: Request,
  input: { id: string | null; language: NoteLanguage },
): Promise<TemplatesPage & { missing: boolean }> {
  const { canManage, ...args } = argsOf(context, request);
  const templates = await listTemplates({ ...args, builtinLanguage: input.language });
  let selected: TemplateDetails | null = null;
  let missing = false;
  if (input.id) {
    try {
      selected = await getTemplate({ ...args, templateId: input.id, language: input.language });
    } catch (error) {
      if (!isAppError(error) || error.status !== 404) throw error;
      missing = true;
    }
  }
  return { templates, selected, canManage, language: input.language, missing };
}

export type TemplateIntent =
  | { intent: "duplicate"; templateId: string; language: NoteLanguage; name?: string; scope: "organization" | "personal" }
  | { intent: "delete"; templateId: string }
  | { intent: "import"; fileText: string; scope: "organization" | "personal" }
  | { intent: "create"; content: unknown; scope: "organization" | "personal" }
  | { intent: "save"; templateId: string; content: unknown };

/** The id to show next and what happened, for the redirect's notice. */
export async function runTemplateIntent(
  context: Readonly<RouterContextProvider>,
  request: Request,
  input: TemplateIntent,
): Promise<{ id: string | null; notice: string }> {
  const { canManage: _, ...args } = argsOf(context, request);
  switch (input.intent) {
    case "duplicate": {
      const { id } = await duplicateTemplate({ ...args, ...input });
      return { id, notice: "duplicated" };
    }
    case "delete":
      await deleteTemplate({ ...args, templateId: input.templateId });
      return { id: null, notice: "deleted" };
    case "import": {
      let document: unknown;
      try {
        document = JSON.parse(input.fileText);
      } catch {
        throw templateErrors.invalid("template_format_unsupported", "", "The file is not JSON");
      }
      const { id } = await importTemplate({ ...args, document, scope: input.scope });
      return { id, notice: "imported" };
    }
    case "create": {
      const { id } = await createTemplate({ ...args, content: input.content, scope: input.scope });
      return { id, notice: "created" };
    }
    case "save": {
      const { id, copied } = await updateTemplate({ ...args, templateId: input.templateId, content: input.content });
      return { id, notice: copied ? "copied" : "saved" };
    }
  }
}
