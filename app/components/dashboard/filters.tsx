import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Section } from "#app/components/ui/page.tsx";
import type { ClinicianOption } from "#app/services/dashboard/dashboard.server.ts";

export interface FilterValues {
  range: string;
  from: string;
  to: string;
  clinician: string;
}

/**
 * Range and clinician: a GET form, so a view is a link and works without JavaScript. A preset
 * range ignores the dates; "Custom" uses them.
 */
export function DashboardFilters({
  values,
  clinicians,
  selfId,
  summary,
  csv,
  tab,
}: {
  values: FilterValues;
  clinicians: ClinicianOption[];
  selfId: string;
  summary: string;
  csv: React.ReactNode;
  /** Kept in the query so applying the filters stays on the same tab. */
  tab?: "quality";
}) {
  const { t } = useTranslation("dashboard");
  return (
    <Section id="filters" title={t("filters.heading")} description={summary} actions={csv} testId="dashboard-filters">
      <Form method="get" className="dash-filters" key={JSON.stringify(values)} preventScrollReset>
        {tab ? <input type="hidden" name="tab" value={tab} /> : null}
        <label>
          {t("filters.range")}
          <select name="range" defaultValue={values.range} data-testid="range-select">
            <option value="7">{t("filters.last7")}</option>
            <option value="30">{t("filters.last30")}</option>
            <option value="90">{t("filters.last90")}</option>
            <option value="custom">{t("filters.custom")}</option>
          </select>
        </label>
        <label>
          {t("filters.from")}
          <input type="date" name="from" defaultValue={values.from} />
        </label>
        <label>
          {t("filters.to")}
          <input type="date" name="to" defaultValue={values.to} />
        </label>
        {clinicians.length === 0 ? null : (
          <label>
            {t("filters.clinician")}
            <select name="clinician_id" defaultValue={values.clinician} data-testid="clinician-select">
              <option value="all">{t("filters.practice")}</option>
              {clinicians.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.id === selfId ? t("filters.mine", { name: c.label }) : c.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="submit" className="ui-button" data-variant="secondary">
          {t("filters.apply")}
        </button>
      </Form>
    </Section>
  );
}
