import { useTranslation } from "react-i18next";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { QualityPage } from "#app/services/dashboard/quality-report.server.ts";

/** The Quality tab's coding block: what coders did with the engine's suggestions, and why they rejected them. */
export function QualityCoding({ coding, reasons }: { coding: QualityPage["coding"]; reasons: QualityPage["reject_reasons"] }) {
  const { t } = useTranslation(["dashboard", "coding"]);
  const locale = useLocale();
  const pct = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 });
  const figures = [
    ["casesCoded", coding.cases_coded],
    ["suggested", coding.suggested],
    ["accepted", coding.accepted],
    ["edited", coding.edited],
    ["rejected", coding.rejected],
    ["added", coding.added],
  ] as const;
  return (
    <div className="dash-quality-coding" data-testid="quality-coding">
      <h3>{t("quality.coding.heading")}</h3>
      <dl className="dash-stats">
        <div data-figure="coding-acceptance">
          <dt>{t("quality.coding.acceptance")}</dt>
          <dd>{coding.acceptance_rate === null ? t("figures.noData") : pct.format(coding.acceptance_rate)}</dd>
        </div>
        {figures.map(([key, value]) => (
          <div key={key} data-figure={`coding-${key}`}>
            <dt>{t(`quality.coding.${key}`)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h4>{t("quality.coding.reasons")}</h4>
      {reasons.length === 0 ? (
        <p>{t("quality.coding.noReasons")}</p>
      ) : (
        <div className="ui-table-wrap">
          <table className="ui-table" data-testid="quality-reject-reasons">
            <caption className="sr-only">{t("quality.coding.reasons")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("quality.coding.reason")}</th>
                <th scope="col" data-align="end">
                  {t("quality.coding.count")}
                </th>
              </tr>
            </thead>
            <tbody>
              {reasons.slice(0, 10).map((r) => (
                <tr key={r.reason}>
                  {/* The coding page's reasons are codes; the API's free text shows as typed. */}
                  <td>{t(`coding:reasons.${r.reason}`, { defaultValue: r.reason })}</td>
                  <td data-align="end">{r.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
