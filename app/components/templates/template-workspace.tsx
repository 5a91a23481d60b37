import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import type { NoteLanguage } from "#app/services/notes/model.ts";
import type { TemplateDetails } from "#app/services/notes/templates/templates.server.ts";
import { TemplateEditor } from "./template-editor.tsx";
import { exportHref } from "./template-links.ts";
import { ScopeSelect } from "./template-list.tsx";

/** The open template: what it is, its actions (duplicate, export, delete) and its editor. */
export function TemplateWorkspace({
  template,
  canManage,
  language,
  error,
}: {
  template: TemplateDetails;
  canManage: boolean;
  language: NoteLanguage;
  error?: string;
}) {
  const { t } = useTranslation("templates");
  const busy = useNavigation().state === "submitting";
  const builtin = template.scope === "builtin";
  const deletable = template.scope === "personal" || (template.scope === "organization" && canManage);
  return (
    <section className="templates-workspace" aria-labelledby="template-heading" data-template-id={template.id}>
      <header>
        <h2 id="template-heading">{template.name}</h2>
        <p>
          <mark data-scope={template.scope}>{t(`scopes.${template.scope}`)}</mark> {t(`languages.${template.language}`)}
        </p>
        {template.description ? <p>{template.description}</p> : null}
        {builtin ? <p className="templates-muted">{t("editor.builtinReadOnly")}</p> : null}
      </header>
      <div className="templates-workspace-actions">
        <Form method="post" data-testid="template-duplicate">
          <input type="hidden" name="intent" value="duplicate" />
          <input type="hidden" name="template_id" value={template.id} />
          <input type="hidden" name="language" value={builtin ? language : template.language} />
          <input type="hidden" name="name" value={t("list.copyName", { name: template.name })} />
          {canManage ? <ScopeSelect defaultValue="personal" /> : null}
          <button type="submit" className="ui-button" disabled={busy}>
            {builtin ? t("actions.duplicateToEdit") : t("actions.duplicate")}
          </button>
        </Form>
        <Link
          reloadDocument
          to={exportHref(template.id, template.language)}
          download
          role="button"
          className="ui-button"
          data-variant="secondary"
          data-testid="template-export"
        >
          {t("actions.export")}
        </Link>
        {deletable ? (
          <details className="templates-delete">
            <summary>{t("actions.delete")}</summary>
            <Form method="post">
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="template_id" value={template.id} />
              <p>{t("delete.confirmText", { name: template.name })}</p>
              <button type="submit" className="ui-button" data-variant="danger" disabled={busy}>
                {t("delete.confirm")}
              </button>
            </Form>
          </details>
        ) : null}
      </div>
      <TemplateEditor template={template} readOnly={builtin} error={error} />
    </section>
  );
}
