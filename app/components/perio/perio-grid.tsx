import { type KeyboardEvent, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PerioChange } from "#app/services/perio/changes.ts";
import { getTooth, type PerioChartData, type SiteFlag } from "#app/services/perio/model.ts";
import {
  buildPath,
  nextStop,
  nextToothStop,
  PATHS,
  type PathName,
  type PathStop,
  previousStop,
} from "#app/services/perio/path.ts";
import { type Numbering, type Site, toothLabel } from "#app/services/perio/teeth.ts";
import { displaySites, LOWER_TEETH, pdBand, type Surface, UPPER_TEETH } from "./chart-layout.ts";
import { PerioArchSvg } from "./perio-arch-svg.tsx";

// Keyboard entry as fast as Open Dental's (issue 14): digits enter the value at the cursor and the
// cursor advances along the path, skipping missing teeth; "+" then a digit enters 10–15; "-" then a
// digit a negative margin; B, S, P, C mark bleeding, suppuration, plaque, calculus on the site just
// entered; Space skips a site, N jumps to the next tooth, X marks the tooth missing; Backspace or
// Ctrl+Z undoes the last entry; arrows move the cursor.

type Row = "pd" | "gm";
type Entry = { forward: PerioChange[]; inverse: PerioChange[]; cursor: PathStop; site: PathStop };
const FLAG_KEYS: Record<string, SiteFlag> = { b: "bop", s: "suppuration", p: "plaque", c: "calculus" };

export function PerioGrid({
  chart,
  chartRef,
  numbering,
  pathName,
  onEdit,
  highlights,
}: {
  chart: PerioChartData;
  chartRef: { current: PerioChartData };
  numbering: Numbering;
  pathName: PathName;
  onEdit: (changes: PerioChange[]) => boolean;
  highlights?: Map<string, "worse" | "better">;
}) {
  const { t } = useTranslation("perio");
  const path = useMemo(() => buildPath(PATHS[pathName], chart), [chart, pathName]);
  const [cursor, setCursor] = useState<PathStop>(() => path[0] ?? { tooth: 1, site: "DB" });
  const [row, setRow] = useState<Row>("pd");
  const [prefix, setPrefix] = useState<"" | "+" | "-">("");
  const history = useRef<Entry[]>([]);
  const [lastHeard, setLastHeard] = useState<string>("");

  const record = (forward: PerioChange[], site: PathStop, next: PathStop | null) => {
    const current = chartRef.current;
    const inverse = forward.map((c) => {
      const tooth = getTooth(current, c.tooth);
      const value = c.site ? tooth.sites[c.site][c.field as Row | SiteFlag] : tooth[c.field as "missing"];
      return { ...c, value };
    });
    if (!onEdit(forward)) return false;
    history.current.push({ forward, inverse, cursor, site });
    if (next) setCursor(next);
    return true;
  };

  const enter = (value: number) => {
    const field = row;
    if (record([{ tooth: cursor.tooth, site: cursor.site, field, value }], cursor, nextStop(path, cursor))) {
      setLastHeard(`${toothLabel(cursor.tooth, numbering)} ${t(`sites.${cursor.site}`)} ${t(`rows.${field}`)} ${value}`);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const key = e.key.toLowerCase();
    if (/^[0-9]$/.test(key)) {
      e.preventDefault();
      const d = Number(key);
      const value = prefix === "+" ? 10 + d : prefix === "-" ? -d : d;
      setPrefix("");
      enter(value);
      return;
    }
    if (key === "+" || key === "-") {
      e.preventDefault();
      setPrefix(key === "-" && row !== "gm" ? "" : key);
      return;
    }
    if (key in FLAG_KEYS) {
      e.preventDefault();
      const target = history.current.at(-1)?.site ?? cursor;
      const flag = FLAG_KEYS[key] as SiteFlag;
      const on = !getTooth(chartRef.current, target.tooth).sites[target.site][flag];
      record([{ tooth: target.tooth, site: target.site, field: flag, value: on }], target, null);
      return;
    }
    if (key === "backspace" || (key === "z" && (e.ctrlKey || e.metaKey))) {
      e.preventDefault();
      const last = history.current.pop();
      if (last && onEdit([...last.inverse].reverse())) setCursor(last.cursor);
      return;
    }
    const move: Record<string, PathStop | null> = {
      arrowright: nextStop(path, cursor),
      " ": nextStop(path, cursor),
      arrowleft: previousStop(path, cursor),
      n: nextToothStop(path, cursor),
    };
    if (key in move) {
      e.preventDefault();
      const to = move[key];
      if (to) setCursor(to);
      return;
    }
    if (key === "x") {
      e.preventDefault();
      const next = nextToothStop(path, cursor);
      record([{ tooth: cursor.tooth, field: "missing", value: true }], cursor, next);
    }
  };

  const cells = (teeth: number[], surface: Surface, field: Row) =>
    teeth.flatMap((tooth) => {
      const rec = getTooth(chart, tooth);
      return displaySites(tooth, surface).map((site: Site) => {
        const s = rec.sites[site];
        const value = s[field];
        const active = cursor.tooth === tooth && cursor.site === site && row === field;
        return (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the grid container takes the keys; a click only moves the cursor.
          <td
            key={`${tooth}${site}${field}`}
            data-testid={`cell-${tooth}-${site}-${field}`}
            data-band={field === "pd" ? pdBand(s.pd) : undefined}
            data-bop={field === "pd" && s.bop ? true : undefined}
            data-active={active || undefined}
            data-missing={rec.missing || undefined}
            data-change={highlights?.get(`${tooth}${site}`)}
            onClick={() => {
              setCursor({ tooth, site });
              setRow(field);
            }}
          >
            {rec.missing ? "" : (value ?? "")}
            {field === "pd" && (s.bop || s.suppuration || s.plaque || s.calculus) ? (
              <span className="perio-flags">
                {s.bop ? <i data-flag="bop" title={t("flags.bop")} /> : null}
                {s.suppuration ? <i data-flag="suppuration" title={t("flags.suppuration")} /> : null}
                {s.plaque ? <i data-flag="plaque" title={t("flags.plaque")} /> : null}
                {s.calculus ? <i data-flag="calculus" title={t("flags.calculus")} /> : null}
              </span>
            ) : null}
          </td>
        );
      });
    });

  const header = (teeth: number[]) => (
    <tr>
      <th scope="row">{t("grid.tooth")}</th>
      {teeth.map((tooth) => {
        const rec = getTooth(chart, tooth);
        return (
          <th key={tooth} colSpan={3} scope="col" data-missing={rec.missing || undefined}>
            {toothLabel(tooth, numbering)}
            {rec.implant ? <span className="perio-implant"> {t("grid.implant_short")}</span> : null}
          </th>
        );
      })}
    </tr>
  );

  const arch = (teeth: number[], upper: boolean) => {
    const outer: Surface = "facial";
    const inner: Surface = "lingual";
    const rows = (surface: Surface) => (
      <>
        <tr>
          <th scope="row">
            {t(`grid.${surface}`)} {t("rows.pd")}
          </th>
          {cells(teeth, surface, "pd")}
        </tr>
        <tr className="perio-gm-row">
          <th scope="row">
            {t(`grid.${surface}`)} {t("rows.gm")}
          </th>
          {cells(teeth, surface, "gm")}
        </tr>
      </>
    );
    return (
      <div className="perio-arch" data-arch={upper ? "upper" : "lower"}>
        <table className="perio-table">
          <tbody>
            {upper ? rows(outer) : rows(inner)}
            <tr className="perio-svg-row">
              <th scope="row" />
              <td colSpan={48}>
                <PerioArchSvg chart={chart} teeth={teeth} surface={upper ? outer : inner} upper />
              </td>
            </tr>
            {header(teeth)}
            <tr className="perio-svg-row">
              <th scope="row" />
              <td colSpan={48}>
                <PerioArchSvg chart={chart} teeth={teeth} surface={upper ? inner : outer} upper={false} />
              </td>
            </tr>
            {upper ? rows(inner) : rows(outer)}
          </tbody>
        </table>
      </div>
    );
  };

  return (
    <div className="perio-grid-wrap">
      <div className="perio-entry-bar">
        <fieldset className="ui-segmented perio-row-switch">
          <legend className="sr-only">{t("grid.entering")}</legend>
          {(["pd", "gm"] as const).map((r) => (
            <button key={r} type="button" aria-pressed={row === r} onClick={() => setRow(r)} data-testid={`row-${r}`}>
              {t(`rows.${r}`)}
            </button>
          ))}
        </fieldset>
        <p className="perio-cursor" aria-live="polite" data-testid="perio-cursor">
          {t("grid.cursor", {
            tooth: toothLabel(cursor.tooth, numbering),
            site: t(`sites.${cursor.site}`),
            row: t(`rows.${row}`),
          })}
          {prefix ? <strong> {prefix}</strong> : null}
        </p>
        <p className="perio-heard" aria-live="polite" data-testid="perio-last-entry">
          {lastHeard ? t("grid.last_entry", { entry: lastHeard }) : ""}
        </p>
      </div>
      <div
        className="perio-grid"
        role="application"
        aria-label={t("grid.label")}
        aria-describedby="perio-keys-help"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart is one keyboard-driven widget (role application).
        tabIndex={0}
        onKeyDown={onKeyDown}
        data-testid="perio-grid"
      >
        {arch(UPPER_TEETH, true)}
        {arch(LOWER_TEETH, false)}
      </div>
      <p id="perio-keys-help" className="perio-help">
        {t("grid.keys_help")}
      </p>
    </div>
  );
}
