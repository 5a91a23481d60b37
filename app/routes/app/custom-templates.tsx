import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { z } from "zod";
import { AppPage } from "#app/components/app-page.tsx";
import { TemplateList } from "#app/components/templates/template-list.tsx";
import { TemplateNotice } from "#app/components/templates/template-notice.tsx";
import { TemplateWorkspace } from "#app/components/templates/template-workspace.tsx";
import { EmptyState } from "#app/components/ui/page.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { previewWithSampleVisit } from "#app/services/notes/templates/engine-preview.server.ts";
import { loadTemplatesPage, runTemplateIntent, type TemplateIntent } from "#app/services/notes/templates/page.server.ts";
import { assertValidPage } from "#app/services/session/page-validity.server.ts";
import templatesCss from "#app/styles/templates.css?url";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/custom-templates";
import { IMPORT_MAX_BYTES, PageLanguageSchema, TemplateFormSchema } from "./custom-templates-schema.ts";

// /custom-templates (issue 6 "Templates"): the library (built-in, organisation, mine), the editor
// with its live preview, duplicate, delete, import and export. Sign-in and the current
// organisation come from the app layout's middleware (requireOrg).

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: templatesCss }];

/** A built-in's `builtin:<slug>` or a stored template's uuid; anything else names no page. */
const TemplateParamSchema = z.union([z.string().regex(/^builtin:[a-z_]{1,60}$/), z.uuid()]);

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const id = url.searchParams.get("id");
  if (id !== null) assertValidPage(TemplateParamSchema.safeParse(id).success);
  const asked = PageLanguageSchema.safeParse(url.searchParams.get("language"));
  const language = asked.success ? asked.data : localeFromPath(url.pathname);
  const page = await loadTemplatesPage(context, request, { id, language });
  return { ...page, notice: url.searchParams.get("notice") };
}

type ParsedForm = z.infer<typeof TemplateFormSchema>;

async function intentOf(form: FormData, input: Exclude<ParsedForm, { intent: "preview" }>): Promise<TemplateIntent> {
  switch (input.intent) {
    case "duplicate":
      return {
        intent: "duplicate",
        templateId: input.template_id,
        language: input.language,
        name: input.name?.trim() || undefined,
        scope: input.scope,
      };
    case "delete":
      return { intent: "delete", templateId: input.template_id };
    case "create":
      return { intent: "create", content: input.template, scope: input.scope };
    case "save":
      return { intent: "save", templateId: input.template_id, content: input.template };
    case "import": {
      const file = form.get("file");
      if (!(file instanceof File) || file.size === 0)
        throw new z.ZodError([{ code: "custom", message: "template_import_file_required", path: ["file"], input: null }]);
      if (file.size > IMPORT_MAX_BYTES)
        throw new z.ZodError([{ code: "custom", message: "template_import_too_large", path: ["file"], input: null }]);
      return { intent: "import", fileText: await file.text(), scope: input.scope };
    }
  }
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  try {
    const input = TemplateFormSchema.parse(Object.fromEntries([...form].filter(([, v]) => typeof v === "string")));
    // The engine preview answers in place (a fetcher): nothing is stored, the editor keeps its state.
    if (input.intent === "preview") return { intent, preview: previewWithSampleVisit(input.template) };
    const { id, notice } = await runTemplateIntent(context, request, await intentOf(form, input));
    const url = pageUrl(request);
    const target = new URLSearchParams({ ...(id ? { id } : {}), notice });
    const language = url.searchParams.get("language");
    if (language) target.set("language", language);
    throw redirect(`${localizePath("/custom-templates", localeFromPath(url.pathname))}?${target}`);
  } catch (error) {
    if (error instanceof z.ZodError) {
      // Schemas name their own codes; zod's sentences are not translation keys.
      const message = error.issues[0]?.message ?? "";
      return data({ intent, error: /^[a-z_]{1,60}$/.test(message) ? message : "invalid_input" }, { status: 400 });
    }
    if (isAppError(error) && error.status < 500) return data({ intent, error: error.code }, { status: error.status });
    throw error;
  }
}

export default function CustomTemplates({ loaderData, actionData }: Route.ComponentProps) {
  const { templates, selected, canManage, language, notice, missing } = loaderData;
  const { t: tUi } = useTranslation("ui");
  return (
    <AppPage page="customTemplates">
      <TemplateNotice notice={missing ? "missing" : notice} />
      <div className="templates-layout">
        <TemplateList
          templates={templates}
          selectedId={selected?.id ?? null}
          canManage={canManage}
          language={language}
          error={
            actionData && "error" in actionData && !["save", "preview"].includes(actionData.intent) ? actionData.error : undefined
          }
        />
        {selected ? (
          <TemplateWorkspace
            key={`${selected.id}:${selected.language}:${selected.updated_at ?? ""}`}
            template={selected}
            canManage={canManage}
            language={language}
            error={actionData && "error" in actionData && actionData.intent === "save" ? actionData.error : undefined}
          />
        ) : (
          // Nothing open yet: what the page is for and the next step.
          <EmptyState icon="template" title={tUi("templates.emptyTitle")} testId="templates-empty">
            <p>{tUi("templates.emptyBody")}</p>
          </EmptyState>
        )}
      </div>
    </AppPage>
  );
}
