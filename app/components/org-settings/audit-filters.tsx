import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";

export interface AuditFilterValues {
  actor: string;
  action: string;
  from: string;
  to: string;
}

/** The audit log's filters: a GET form, so a filtered view is a link and works without JavaScript. */
export function AuditFilters({
  values,
  actors,
  actions,
}: {
  values: AuditFilterValues;
  actors: { id: string; label: string }[];
  actions: readonly string[];
}) {
  const { t } = useTranslation("orgSettings");
  const to = useLocalizedPath();
  return (
    <Form method="get" key={JSON.stringify(values)} aria-label={t("audit.filters.label")} className="audit-filters">
      <div className="ui-filter-grid">
        <label>
          {t("audit.filters.actor")}
          <select name="actor" defaultValue={values.actor}>
            <option value="">{t("audit.filters.anyActor")}</option>
            {actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
                {actor.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("audit.filters.action")}
          <select name="action" defaultValue={values.action}>
            <option value="">{t("audit.filters.anyAction")}</option>
            {actions.map((action) => (
              <option key={action} value={action}>
                {t(`audit.actions.${action}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("audit.filters.from")}
          <input type="date" name="from" defaultValue={values.from} />
        </label>
        <label>
          {t("audit.filters.to")}
          <input type="date" name="to" defaultValue={values.to} />
        </label>
      </div>
      <div className="ui-form-actions">
        <button type="submit" className="ui-button">
          {t("audit.filters.apply")}
        </button>
        <Link className="ui-button" data-variant="ghost" to={to("/settings/audit")}>
          {t("audit.filters.reset")}
        </Link>
      </div>
    </Form>
  );
}
