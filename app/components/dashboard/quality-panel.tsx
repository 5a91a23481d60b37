import { useTranslation } from "react-i18next";
import { Section } from "#app/components/ui/page.tsx";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { QualityPage } from "#app/services/dashboard/quality-report.server.ts";
import { BarChart } from "./bar-chart.tsx";
import { CHART_COLORS } from "./palette.ts";
import { QualityCoding } from "./quality-coding.tsx";
import { wordDiff } from "./word-diff.ts";

/**
 * Issue 16 "Quality": is the scribe getting better for us, and where does it fail? Figures from the
 * clinicians' own edits at sign-off; the examples show the draft against the signed text.
 */
export function QualityPanel({ quality, exportQuery }: { quality: QualityPage; exportQuery: string }) {
  const { t } = useTranslation("dashboard");
  const locale = useLocale();
  const pct = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 });
  const rate = (v: number | null) => (v === null ? t("figures.noData") : pct.format(v));
  const s = quality.summary;
  const examples = new Map(quality.examples.map((e) => [`${e.template_id}/${e.section_key}`, e]));
  const top = quality.sections.filter((x) => x.mean_edit_ratio > 0).slice(0, 10);
  return (
    <Section
      id="quality"
      title={t("quality.heading")}
      description={t("quality.intro")}
      actions={
        <a href={`/api/dashboard/quality?${exportQuery}`} download data-testid="quality-export">
          {t("quality.export")}
        </a>
      }
      testId="dashboard-quality"
    >
      <dl className="dash-stats">
        <div data-figure="acceptance">
          <dt>{t("quality.acceptance")}</dt>
          <dd>{rate(s.acceptance_rate)}</dd>
        </div>
        <div>
          <dt>{t("quality.unchanged")}</dt>
          <dd>{rate(s.unchanged_notes_rate)}</dd>
        </div>
        <div>
          <dt>{t("quality.meanEdit")}</dt>
          <dd>{rate(s.mean_edit_ratio)}</dd>
        </div>
        <div>
          <dt>{t("quality.notesSigned")}</dt>
          <dd>{s.notes_signed}</dd>
        </div>
        <div>
          <dt>{t("quality.rating")}</dt>
          <dd>
            {s.ratings.mean === null
              ? t("figures.noData")
              : t("quality.ratingValue", { mean: s.ratings.mean, count: s.ratings.count })}
          </dd>
        </div>
        <div>
          <dt>{t("quality.omissions")}</dt>
          <dd>{s.omissions_listed}</dd>
        </div>
      </dl>
      <p className="dash-note">{t("quality.definition")}</p>
      <BarChart
        title={t("quality.trend")}
        dates={quality.trend.map((w) => w.week)}
        locale={locale}
        format={(v) => pct.format(v)}
        testId="chart-quality"
        series={[
          {
            key: "edit",
            label: t("quality.meanEdit"),
            color: CHART_COLORS.purple,
            values: quality.trend.map((w) => w.mean_edit_ratio ?? 0),
          },
        ]}
      />
      <h3>{t("quality.mostEdited")}</h3>
      {top.length === 0 ? <p>{t("quality.noneEdited")}</p> : null}
      <ol className="dash-edited" data-testid="quality-sections">
        {top.map((x) => {
          const example = examples.get(`${x.template_id}/${x.section_key}`);
          return (
            <li key={`${x.template_id}/${x.section_key}`}>
              <p>
                <strong>{x.section_key}</strong> <span className="dash-meta">{x.template_id}</span>{" "}
                {t("quality.sectionLine", {
                  edit: pct.format(x.mean_edit_ratio),
                  accepted: pct.format(x.accepted_rate),
                  count: x.signed,
                })}
              </p>
              {example ? (
                <details>
                  <summary>{t("quality.example")}</summary>
                  <p className="dash-diff" data-testid="quality-diff">
                    {wordDiff(example.draft, example.signed).map((part, i) =>
                      part.kind === "same" ? (
                        // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed text, never reordered.
                        <span key={i}>{part.text}</span>
                      ) : part.kind === "removed" ? (
                        // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed text, never reordered.
                        <del key={i}>
                          <span className="sr-only">{t("quality.removed")}: </span>
                          {part.text}
                        </del>
                      ) : (
                        // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed text, never reordered.
                        <ins key={i}>
                          <span className="sr-only">{t("quality.added")}: </span>
                          {part.text}
                        </ins>
                      ),
                    )}
                  </p>
                </details>
              ) : null}
            </li>
          );
        })}
      </ol>
      <QualityCoding coding={quality.coding} reasons={quality.reject_reasons} />
    </Section>
  );
}
