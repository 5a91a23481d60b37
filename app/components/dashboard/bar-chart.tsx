import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatCalendarDate } from "#app/utils/zoned-time.ts";

// Issue 16, ADR 0016: a small bar chart rendered as SVG on the server, readable without
// JavaScript. Each bar carries a <title> (the browser's hover tooltip, and what a screen reader
// reads); a table of the same numbers sits behind every chart; once hydrated, the legend toggles
// series and hovering shows the value in the caption.

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
  values: number[];
}

const W = 640;
const H = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 44 };

/** A round axis maximum at or above `max` (1, 2, 5 × 10ⁿ). */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const exp = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * exp >= max) return step * exp;
  return 10 * exp;
}

export function BarChart({
  title,
  dates,
  series,
  locale,
  format = (v) => String(v),
  testId,
}: {
  title: string;
  dates: string[];
  series: ChartSeries[];
  locale: string;
  format?: (value: number) => string;
  testId?: string;
}) {
  const { t } = useTranslation("dashboard");
  const id = useId();
  const [hidden, setHidden] = useState<string[]>([]);
  const [hover, setHover] = useState<string | null>(null);
  const shown = series.filter((s) => !hidden.includes(s.key));
  const max = niceMax(Math.max(0, ...shown.flatMap((s) => s.values)));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, dates.length);
  const barW = Math.max(1, (slot * 0.8) / Math.max(1, shown.length));
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const day = (d: string) => formatCalendarDate(d, locale);
  const labelled = dates.length <= 1 ? [0] : [0, Math.floor((dates.length - 1) / 2), dates.length - 1];
  return (
    <figure className="dash-chart" data-testid={testId}>
      <figcaption id={`${id}-title`}>
        <span className="dash-chart-title">{title}</span>
        <span className="dash-chart-hover" aria-live="polite">
          {hover ?? ""}
        </span>
      </figcaption>
      <ul className="dash-legend">
        {series.map((s) => {
          const on = !hidden.includes(s.key);
          return (
            <li key={s.key}>
              <button
                type="button"
                aria-pressed={on}
                aria-label={t("figures.legendToggle", { series: s.label })}
                onClick={() => setHidden((h) => (on ? [...h, s.key] : h.filter((k) => k !== s.key)))}
              >
                <span className="dash-swatch" style={{ background: s.color }} aria-hidden="true" />
                {s.label}
              </button>
            </li>
          );
        })}
      </ul>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title`} className="dash-chart-svg">
        <title>{title}</title>
        {[0, max / 2, max].map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(tick)} y2={y(tick)} className="dash-grid" />
            <text x={PAD.left - 6} y={y(tick) + 5} textAnchor="end" className="dash-axis">
              {format(tick)}
            </text>
          </g>
        ))}
        {dates.map((date, i) =>
          shown.map((s, j) => {
            const value = s.values[i] ?? 0;
            const label = `${day(date)} — ${s.label}: ${format(value)}`;
            return (
              // biome-ignore lint/a11y/noStaticElementInteractions: a pointer-only extra; each bar's <title> and the table say the same.
              <rect
                key={`${date}-${s.key}`}
                x={PAD.left + i * slot + slot * 0.1 + j * barW}
                y={y(value)}
                width={barW}
                height={Math.max(0, PAD.top + plotH - y(value))}
                fill={s.color}
                onMouseEnter={() => setHover(label)}
                onMouseLeave={() => setHover(null)}
              >
                <title>{label}</title>
              </rect>
            );
          }),
        )}
        {labelled.map((i) => {
          const date = dates[i];
          if (!date) return null;
          const anchor = i === 0 ? "start" : i === dates.length - 1 ? "end" : "middle";
          const x = i === 0 ? PAD.left : i === dates.length - 1 ? W - PAD.right : PAD.left + (i + 0.5) * slot;
          return (
            <text key={date} x={x} y={H - 8} textAnchor={anchor} className="dash-axis">
              {day(date)}
            </text>
          );
        })}
      </svg>
      <details className="dash-chart-table">
        <summary>{t("figures.showTable")}</summary>
        <div className="ui-table-wrap">
          <table className="ui-table">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t("figures.date")}</th>
                {series.map((s) => (
                  <th key={s.key} scope="col" data-align="end">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {dates.map((date, i) => (
                <tr key={date}>
                  <th scope="row">
                    <time dateTime={date}>{day(date)}</time>
                  </th>
                  {series.map((s) => (
                    <td key={s.key} data-align="end">
                      {format(s.values[i] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
