import { useTranslation } from "react-i18next";
import { Section } from "#app/components/ui/page.tsx";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { DashboardData } from "#app/services/dashboard/dashboard.server.ts";
import { BarChart } from "./bar-chart.tsx";
import { CsvLink } from "./csv-link.tsx";
import { formatDuration } from "./duration.ts";
import { CHART_COLORS } from "./palette.ts";

/** The range's figures: charts with a table behind each, medians, and the totals per clinician. */
export function FiguresPanel({ data, csvQuery }: { data: DashboardData; csvQuery: string }) {
  const { t } = useTranslation("dashboard");
  const locale = useLocale();
  const series = data.series ?? [];
  const dates = series.map((d) => d.date);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const names = new Map(data.clinicians.map((c) => [c.id, c.label]));
  return (
    <Section
      id="figures"
      title={t("figures.heading")}
      actions={<CsvLink query={csvQuery} figure="series" />}
      testId="dashboard-figures"
    >
      <dl className="dash-stats" data-testid="dashboard-medians">
        {(["stopToDraft", "draftToSigned"] as const).map((key) => {
          const value = key === "stopToDraft" ? data.medians.stop_to_draft_s : data.medians.draft_to_signed_s;
          return (
            <div key={key}>
              <dt>{t(`figures.${key}`)}</dt>
              <dd>{value === null ? t("figures.noData") : formatDuration(value, t)}</dd>
            </div>
          );
        })}
      </dl>
      {data.visible.notes ? null : <p className="dash-note">{t("figures.notesHidden")}</p>}
      <div className="dash-charts">
        <BarChart
          title={data.visible.notes ? `${t("figures.visits")} · ${t("figures.notesSigned")}` : t("figures.visits")}
          dates={dates}
          locale={locale}
          format={(v) => number.format(v)}
          testId="chart-visits"
          series={[
            { key: "visits", label: t("figures.visitsSeries"), color: CHART_COLORS.blue, values: series.map((d) => d.visits) },
            ...(data.visible.notes
              ? [
                  {
                    key: "notes",
                    label: t("figures.notesSeries"),
                    color: CHART_COLORS.orange,
                    values: series.map((d) => d.notes_signed ?? 0),
                  },
                ]
              : []),
          ]}
        />
        <BarChart
          title={t("figures.codingChart")}
          dates={dates}
          locale={locale}
          format={(v) => number.format(v)}
          testId="chart-coding"
          series={[
            {
              key: "coded",
              label: t("figures.codedSeries"),
              color: CHART_COLORS.purple,
              values: series.map((d) => d.coding_coded),
            },
            {
              key: "exported",
              label: t("figures.exportedSeries"),
              color: CHART_COLORS.blue,
              values: series.map((d) => d.coding_exported),
            },
          ]}
        />
        <BarChart
          title={t("figures.minutes")}
          dates={dates}
          locale={locale}
          format={(v) => number.format(v)}
          testId="chart-minutes"
          series={[
            {
              key: "minutes",
              label: t("figures.minutesSeries"),
              color: CHART_COLORS.green,
              values: series.map((d) => d.recorded_minutes),
            },
          ]}
        />
      </div>
      {data.per_clinician && data.per_clinician.length > 0 ? (
        <div className="dash-per-clinician">
          <h3>
            {t("figures.perClinician")} <CsvLink query={csvQuery} figure="per_clinician" />
          </h3>
          <div className="ui-table-wrap">
            <table className="ui-table" data-testid="dashboard-per-clinician">
              <caption className="sr-only">{t("figures.perClinician")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("figures.clinician")}</th>
                  <th scope="col" data-align="end">
                    {t("figures.visitsSeries")}
                  </th>
                  <th scope="col" data-align="end">
                    {t("figures.minutesSeries")}
                  </th>
                  {data.visible.notes ? (
                    <th scope="col" data-align="end">
                      {t("figures.notesSeries")}
                    </th>
                  ) : null}
                  <th scope="col" data-align="end">
                    {t("figures.codedSeries")}
                  </th>
                  <th scope="col" data-align="end">
                    {t("figures.exportedSeries")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.per_clinician.map((c) => (
                  <tr key={c.clinician_id ?? "none"}>
                    <th scope="row">
                      {c.clinician_id ? (names.get(c.clinician_id) ?? c.clinician_id.slice(0, 8)) : t("figures.noClinician")}
                    </th>
                    <td data-align="end">{c.visits}</td>
                    <td data-align="end">{number.format(c.recorded_minutes)}</td>
                    {data.visible.notes ? <td data-align="end">{c.notes_signed ?? 0}</td> : null}
                    <td data-align="end">{c.coding_coded}</td>
                    <td data-align="end">{c.coding_exported}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </Section>
  );
}
