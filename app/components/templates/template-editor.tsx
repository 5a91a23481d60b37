import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { NOTE_LANGUAGES, type NoteLanguage } from "#app/services/notes/model.ts";
import { TemplateContentSchema, validateTemplate } from "#app/services/notes/templates/template-schema.ts";
import type { TemplateDetails } from "#app/services/notes/templates/templates.server.ts";
import {
  contentOf,
  type EditorSection,
  type EditorState,
  keyFromTitle,
  move,
  newSection,
  toEditorSection,
} from "./editor-state.ts";
import { SectionEditor } from "./section-editor.tsx";
import { TemplateError } from "./template-error.tsx";
import { TemplatePreview } from "./template-preview.tsx";

/**
 * The editor of one template, with its live preview. The working copy lives in React state and
 * is posted as one JSON field, so a refused save (shown translated) leaves every edit in place.
 * Built-ins are shown read-only (duplicate to edit).
 */
export function TemplateEditor({ template, readOnly, error }: { template: TemplateDetails; readOnly: boolean; error?: string }) {
  const { t } = useTranslation("templates");
  const busy = useNavigation().state === "submitting";
  const [state, setState] = useState<EditorState>(() => ({
    name: template.name,
    description: template.description,
    language: template.language,
    sections: template.sections.map(toEditorSection),
  }));
  const content = useMemo(() => contentOf(state), [state]);
  const check = useMemo(() => validateTemplate(TemplateContentSchema, content), [content]);
  const [saved] = useState(() => JSON.stringify(content));
  const dirty = !readOnly && JSON.stringify(content) !== saved;
  // Closing or reloading the tab with unsaved edits asks first (the browser's own prompt).
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const setSection = (uid: string, patch: Partial<EditorSection>) =>
    setState((s) => ({
      ...s,
      sections: s.sections.map((section) => {
        if (section.uid !== uid) return section;
        const next = { ...section, ...patch };
        if (section.autoKey && patch.title !== undefined) {
          next.key = keyFromTitle(
            patch.title,
            s.sections.filter((o) => o.uid !== uid).map((o) => o.key),
          );
        }
        return next;
      }),
    }));

  return (
    <div className="templates-editor">
      <Form method="post" className="templates-form" data-testid="template-editor">
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="template_id" value={template.id} />
        <input type="hidden" name="template" value={JSON.stringify(content)} />
        <fieldset disabled={readOnly}>
          <label>
            {t("editor.name")}
            <input
              value={state.name}
              maxLength={120}
              required
              onChange={(e) => setState((s) => ({ ...s, name: e.target.value }))}
            />
          </label>
          <label>
            {t("editor.description")}
            <textarea
              rows={2}
              maxLength={1000}
              value={state.description}
              onChange={(e) => setState((s) => ({ ...s, description: e.target.value }))}
            />
          </label>
          <label>
            {t("editor.language")}
            <select
              value={state.language}
              onChange={(e) => setState((s) => ({ ...s, language: e.target.value as NoteLanguage }))}
            >
              {NOTE_LANGUAGES.map((lng) => (
                <option key={lng} value={lng}>
                  {t(`languages.${lng}`)}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
        <h2>{t("editor.sections")}</h2>
        {state.sections.map((section, index) => (
          <SectionEditor
            key={section.uid}
            section={section}
            index={index}
            count={state.sections.length}
            readOnly={readOnly}
            onChange={(patch) => setSection(section.uid, patch)}
            onMove={(to) => setState((s) => ({ ...s, sections: move(s.sections, index, to) }))}
            onRemove={() => setState((s) => ({ ...s, sections: s.sections.filter((o) => o.uid !== section.uid) }))}
          />
        ))}
        {readOnly ? null : (
          <>
            <button
              type="button"
              className="ui-button"
              data-variant="secondary"
              disabled={state.sections.length >= 40}
              onClick={() =>
                setState((s) => ({
                  ...s,
                  sections: [
                    ...s.sections,
                    newSection(
                      t("editor.newSectionTitle"),
                      s.sections.map((o) => o.key),
                    ),
                  ],
                }))
              }
            >
              {t("editor.addSection")}
            </button>
            {check.ok ? null : <TemplateError code={check.code} path={check.path} live />}
            <TemplateError code={error} />
            <button type="submit" className="ui-button" disabled={busy} aria-busy={busy || undefined}>
              {t("editor.save")}
            </button>
            {template.scope === "organization" && !template.editable_in_place ? (
              <p className="templates-muted">{t("editor.copyOnSave")}</p>
            ) : null}
          </>
        )}
      </Form>
      <TemplatePreview name={state.name} sections={content.sections} language={state.language} content={content} />
    </div>
  );
}
