import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { NOTE_LANGUAGES, type NoteLanguage } from "#app/services/notes/model.ts";
import type { TemplateScope, TemplateSummary } from "#app/services/notes/templates/templates.server.ts";
import { TemplateError } from "./template-error.tsx";
import { exportHref, pagePath } from "./template-links.ts";

const SCOPES: TemplateScope[] = ["builtin", "organization", "personal"];

/** The library by scope, with a language for built-ins, a blank template and an import form. */
export function TemplateList({
  templates,
  selectedId,
  canManage,
  language,
  error,
}: {
  templates: TemplateSummary[];
  selectedId: string | null;
  canManage: boolean;
  language: NoteLanguage;
  error?: string;
}) {
  const { t } = useTranslation("templates");
  const to = useLocalizedPath();
  const busy = useNavigation().state === "submitting";
  return (
    <aside className="templates-list" aria-label={t("list.label")}>
      <Form method="get" className="templates-language">
        <label>
          {t("list.language")}
          <select name="language" defaultValue={language}>
            {NOTE_LANGUAGES.map((lng) => (
              <option key={lng} value={lng}>
                {t(`languages.${lng}`)}
              </option>
            ))}
          </select>
        </label>
        {selectedId ? <input type="hidden" name="id" value={selectedId} /> : null}
        <button type="submit" className="ui-button" data-variant="secondary">
          {t("list.showLanguage")}
        </button>
      </Form>
      <TemplateError code={error} />
      {SCOPES.map((scope) => {
        const items = templates.filter((tpl) => tpl.scope === scope);
        return (
          <section key={scope} data-scope={scope}>
            <h2>{t(`scopes.${scope}`)}</h2>
            {items.length === 0 ? <p className="templates-muted">{t(`list.empty.${scope}`)}</p> : null}
            <ul className="templates-items">
              {items.map((tpl) => (
                <li key={tpl.id} aria-current={tpl.id === selectedId ? "true" : undefined}>
                  <Link to={pagePath(to, tpl.id, language)}>{tpl.name}</Link>{" "}
                  <small>
                    {t(`languages.${tpl.language}`)} · {t("list.sectionCount", { count: tpl.section_count })}
                  </small>
                  <div className="templates-item-actions">
                    <Form method="post">
                      <input type="hidden" name="intent" value="duplicate" />
                      <input type="hidden" name="template_id" value={tpl.id} />
                      <input type="hidden" name="language" value={tpl.language} />
                      <input type="hidden" name="name" value={t("list.copyName", { name: tpl.name })} />
                      <button
                        type="submit"
                        className="ui-button"
                        data-variant="ghost"
                        disabled={busy}
                        aria-label={t("list.duplicateNamed", { name: tpl.name })}
                      >
                        {t("actions.duplicate")}
                      </button>
                    </Form>
                    <Link
                      reloadDocument
                      to={exportHref(tpl.id, tpl.language)}
                      download
                      role="button"
                      className="ui-button"
                      data-variant="ghost"
                    >
                      {t("actions.export")}
                    </Link>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      <section>
        <h2>{t("create.heading")}</h2>
        <Form method="post" data-testid="template-create">
          <input type="hidden" name="intent" value="create" />
          <input
            type="hidden"
            name="template"
            value={JSON.stringify(blankTemplate(t("create.name"), t("editor.newSectionTitle"), language))}
          />
          {canManage ? <ScopeSelect /> : null}
          <button type="submit" className="ui-button" data-variant="secondary" disabled={busy}>
            {t("create.submit")}
          </button>
        </Form>
      </section>
      <section>
        <h2>{t("import.heading")}</h2>
        <Form method="post" encType="multipart/form-data" data-testid="template-import">
          <input type="hidden" name="intent" value="import" />
          <label>
            {t("import.file")}
            <input type="file" name="file" accept="application/json,.json" required />
          </label>
          {canManage ? <ScopeSelect /> : null}
          <button type="submit" className="ui-button" disabled={busy}>
            {t("import.submit")}
          </button>
        </Form>
      </section>
    </aside>
  );
}

/** A new template starts with one free-text section, titled in the page's language. */
function blankTemplate(name: string, sectionTitle: string, language: NoteLanguage) {
  return {
    name,
    language,
    description: "",
    sections: [
      {
        key: "notes",
        title: sectionTitle,
        kind: "other",
        header: "with_content",
        style: "prose",
        verbosity: "standard",
        persistent: false,
      },
    ],
  };
}

/** Owners and admins choose whether a new template is the organisation's or their own. */
export function ScopeSelect({ defaultValue = "organization" }: { defaultValue?: "organization" | "personal" }) {
  const { t } = useTranslation("templates");
  return (
    <label>
      {t("scope.label")}
      <select name="scope" defaultValue={defaultValue}>
        <option value="organization">{t("scopes.organization")}</option>
        <option value="personal">{t("scopes.personal")}</option>
      </select>
    </label>
  );
}
