import { useTranslation } from "react-i18next";
import { useLocale } from "#app/i18n/use-locale.ts";
import { listBuiltinTemplates } from "#app/services/notes/templates/builtin/index.ts";

/**
 * Issue 29: the note's template, chosen when the visit starts; the note is drafted with it as soon
 * as the transcript is ready. Built-ins come from the code, so the field works without JavaScript.
 */
export function VisitTemplateField({ id }: { id: string }) {
  const { t } = useTranslation("notes");
  const locale = useLocale();
  return (
    <label htmlFor={id}>
      {t("generate.template")}
      <select id={id} name="template_id" defaultValue="builtin:soap" data-testid="visit-template">
        {listBuiltinTemplates(locale).map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
      </select>
    </label>
  );
}
