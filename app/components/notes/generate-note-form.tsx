import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { NOTE_LANGUAGES, type NoteLanguage } from "#app/services/notes/model.ts";
import { listBuiltinTemplates } from "#app/services/notes/templates/builtin/index.ts";

/** A template of GET /api/templates (app/services/notes/templates/templates.server.ts TemplateSummary). */
interface TemplateOption {
  id: string;
  name: string;
  language: NoteLanguage;
  scope: "builtin" | "organization" | "personal";
}

/**
 * /transcribing, once a visit has a transcript: pick a template and the note's language, then
 * generate — the form posts to /coding, which queues the note and opens it. Built-ins are listed
 * from the code (so the form works without JavaScript); the organisation's and the user's own
 * templates join the list once the page has loaded them from the templates API.
 */
export function GenerateNoteForm({ visitId, orgId, language }: { visitId: string; orgId: string; language: NoteLanguage }) {
  const { t } = useTranslation("notes");
  const localize = useLocalizedPath();
  const busy = useNavigation().state !== "idle";
  const [noteLanguage, setNoteLanguage] = useState<NoteLanguage>(language);
  const [stored, setStored] = useState<TemplateOption[]>([]);
  const builtins = useMemo(() => listBuiltinTemplates(noteLanguage), [noteLanguage]);

  useEffect(() => {
    const controller = new AbortController();
    fetch(`/api/templates?language=${noteLanguage}`, { headers: { "x-org-id": orgId }, signal: controller.signal })
      .then((res) => (res.ok ? (res.json() as Promise<TemplateOption[]>) : []))
      .then((list) => setStored(list.filter((x) => x.scope !== "builtin")))
      // Without the stored templates the built-ins still work.
      .catch(() => {});
    return () => controller.abort();
  }, [noteLanguage, orgId]);

  const groups = (["organization", "personal"] as const).map((scope) => ({
    scope,
    items: stored.filter((x) => x.scope === scope),
  }));
  return (
    <Form method="post" action={localize("/coding")} className="generate-note" data-testid="generate-note">
      <h3>{t("generate.title")}</h3>
      <input type="hidden" name="intent" value="generate" />
      <input type="hidden" name="visit_id" value={visitId} />
      <div className="grid">
        <label>
          {t("generate.template")}
          <select name="template_id" defaultValue="builtin:soap" data-testid="generate-template">
            <optgroup label={t("generate.groups.builtin")}>
              {builtins.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </optgroup>
            {groups.map((g) =>
              g.items.length ? (
                <optgroup key={g.scope} label={t(`generate.groups.${g.scope}`)}>
                  {g.items.map((x) => (
                    <option key={x.id} value={x.id}>
                      {x.name}
                    </option>
                  ))}
                </optgroup>
              ) : null,
            )}
          </select>
        </label>
        <label>
          {t("generate.language")}
          <select
            name="language"
            value={noteLanguage}
            onChange={(e) => setNoteLanguage(e.target.value as NoteLanguage)}
            data-testid="generate-language"
          >
            {NOTE_LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {t(`languages.${l}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <button type="submit" disabled={busy} aria-busy={busy} data-testid="generate-submit">
        {t("generate.submit")}
      </button>
    </Form>
  );
}
