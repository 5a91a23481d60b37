import { type KeyboardEvent, type Ref, useImperativeHandle, useMemo, useRef, useState } from "react";
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
import { furcationSites, type Numbering, parseTooth, type Site, toothLabel } from "#app/services/perio/teeth.ts";
import type { VoiceCommand } from "#app/services/perio/voice-grammar.ts";
import { displaySites, LOWER_TEETH, pdBand, type Surface, UPPER_TEETH } from "./chart-layout.ts";
import { PerioArchSvg } from "./perio-arch-svg.tsx";

// Keyboard entry as fast as Open Dental's (issue 14): digits enter the value at the cursor and the
// cursor advances along the path, skipping missing teeth; "+" then a digit enters 10–15; "-" then a
// digit a negative margin; B, S, P, C mark bleeding, suppuration, plaque, calculus on the site just
// entered; Space skips a site, N jumps to the next tooth, X marks the tooth missing; Backspace or
// Ctrl+Z undoes the last entry; arrows move the cursor.

type Row = "pd" | "gm";
/**
 * Voice mode drives the grid through this handle. `command` answers where the command went
 * ("1 DB PD 3 · 1 B PD 2 · 1 MB PD 3", or the cursor after a move) for the "heard … → …" line, or
 * null when nothing could be done (the panel then says it was not understood).
 */
export type VoiceTarget = { command(cmd: VoiceCommand): string | null };
type Entry = { forward: PerioChange[]; inverse: PerioChange[]; cursor: PathStop; site: PathStop };
const FLAG_KEYS: Record<string, SiteFlag> = { b: "bop", s: "suppuration", p: "plaque", c: "calculus" };

export function PerioGrid({
  chart,
  chartRef,
  numbering,
  pathName,
  onEdit,
  highlights,
  voiceRef,
}: {
  chart: PerioChartData;
  chartRef: { current: PerioChartData };
  numbering: Numbering;
  pathName: PathName;
  onEdit: (changes: PerioChange[]) => boolean;
  highlights?: Map<string, "worse" | "better">;
  /** Voice mode drives the same cursor and entries as the keyboard. */
  voiceRef?: Ref<VoiceTarget>;
}) {
  const { t } = useTranslation("perio");
  const path = useMemo(() => buildPath(PATHS[pathName], chart), [chart, pathName]);
  const [cursor, setCursorState] = useState<PathStop>(() => path[0] ?? { tooth: 1, site: "DB" });
  // Several values can arrive in one event (a spoken triplet): each moves from the latest cursor.
  const cursorRef = useRef(cursor);
  const setCursor = (stop: PathStop) => {
    cursorRef.current = stop;
    setCursorState(stop);
  };
  const [row, setRow] = useState<Row>("pd");
  const [prefix, setPrefix] = useState<"" | "+" | "-">("");
  const history = useRef<Entry[]>([]);
  const [lastHeard, setLastHeard] = useState<string>("");
  // Visual confirmation (issue 14 "a short audible or visual confirmation"): the cells an action
  // wrote flash once. One keypress or one spoken command is a batch: a triplet flashes three cells.
  const [flash, setFlash] = useState<{ keys: string[]; batch: number }>({ keys: [], batch: 0 });
  const batch = useRef({ id: 0, keys: [] as string[], entries: [] as string[] });
  const beginBatch = () => {
    batch.current = { id: batch.current.id + 1, keys: [], entries: [] };
  };
  const flashKeys = (changes: PerioChange[]) => {
    for (const c of changes)
      batch.current.keys.push(c.site ? `${c.tooth}${c.site}${c.field === "gm" ? "gm" : "pd"}` : `${c.tooth}`);
    setFlash({ keys: [...batch.current.keys], batch: batch.current.id });
  };
  /** What an action wrote, for the "Entered: …" line and the voice panel's "heard … → …". */
  const note = (entry: string) => {
    batch.current.entries.push(entry);
    setLastHeard(batch.current.entries.join(" · "));
  };
  const describe = (stop: PathStop, field?: string, value?: number | boolean) =>
    [toothLabel(stop.tooth, numbering), t(`sites.${stop.site}`), field ? t(`rows.${field}`) : "", value ?? ""]
      .filter((x) => x !== "")
      .join(" ");

  const record = (forward: PerioChange[], site: PathStop, next: PathStop | null) => {
    const current = chartRef.current;
    const inverse = forward.map((c) => {
      const tooth = getTooth(current, c.tooth);
      const value = c.site ? tooth.sites[c.site][c.field as Row | SiteFlag] : tooth[c.field as "missing"];
      return { ...c, value };
    });
    if (!onEdit(forward)) return false;
    history.current.push({ forward, inverse, cursor: cursorRef.current, site });
    flashKeys(forward);
    if (next) setCursor(next);
    return true;
  };

  const enter = (value: number, field: Row = row) => {
    const at = cursorRef.current;
    if (record([{ tooth: at.tooth, site: at.site, field, value }], at, nextStop(path, at))) {
      note(describe(at, field, value));
      return true;
    }
    return false;
  };

  const toggleFlag = (flag: SiteFlag): boolean => {
    const target = history.current.at(-1)?.site ?? cursorRef.current;
    const on = !getTooth(chartRef.current, target.tooth).sites[target.site][flag];
    if (!record([{ tooth: target.tooth, site: target.site, field: flag, value: on }], target, null)) return false;
    note(`${describe(target)} ${t(`flags.${flag}`)}${on ? "" : " ✕"}`);
    return true;
  };

  const undo = (): boolean => {
    const last = history.current.pop();
    if (!last || !onEdit([...last.inverse].reverse())) return false;
    flashKeys(last.inverse);
    setCursor(last.cursor);
    return true;
  };

  const markMissing = (): boolean => {
    const at = cursorRef.current;
    if (!record([{ tooth: at.tooth, field: "missing", value: true }], at, nextToothStop(path, at))) return false;
    note(`${toothLabel(at.tooth, numbering)} ${t("print.missing")}`);
    return true;
  };

  /** One voice command; true when it did something. */
  const run = (cmd: VoiceCommand): boolean => {
    const at = cursorRef.current;
    switch (cmd.kind) {
      case "values":
        return cmd.values.every((v) => enter(v));
      case "flag":
        return toggleFlag(cmd.flag);
      case "undo":
        return undo();
      case "missing":
        return markMissing();
      case "skip":
      case "next_tooth":
      case "back": {
        const to =
          cmd.kind === "skip" ? nextStop(path, at) : cmd.kind === "back" ? previousStop(path, at) : nextToothStop(path, at);
        if (to) setCursor(to);
        return to !== null;
      }
      case "tooth": {
        const tooth = parseTooth(cmd.tooth, numbering);
        const to = path.find((p) => p.tooth === tooth);
        if (to) setCursor(to);
        return to !== undefined;
      }
      case "mobility":
        if (!record([{ tooth: at.tooth, field: "mobility", value: cmd.value }], at, null)) return false;
        note(`${toothLabel(at.tooth, numbering)} ${t("print.mobility")} ${cmd.value}`);
        return true;
      case "furcation": {
        const sites = furcationSites(at.tooth);
        const site = sites.includes(at.site) ? at.site : sites[0];
        if (!site || !record([{ tooth: at.tooth, site, field: "furcation", value: cmd.value }], at, null)) return false;
        note(`${describe({ tooth: at.tooth, site })} ${t("print.furcation")} ${cmd.value}`);
        return true;
      }
      case "recession": {
        const target = history.current.at(-1)?.site ?? at;
        if (!record([{ tooth: target.tooth, site: target.site, field: "gm", value: cmd.value }], target, null)) return false;
        note(describe(target, "gm", cmd.value));
        return true;
      }
      default:
        return false;
    }
  };

  useImperativeHandle(voiceRef, () => ({
    command(cmd: VoiceCommand): string | null {
      beginBatch();
      if (!run(cmd)) return null;
      // Values say what went where; other commands say where the cursor is now.
      return batch.current.entries.length ? batch.current.entries.join(" · ") : describe(cursorRef.current);
    },
  }));

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const key = e.key.toLowerCase();
    beginBatch();
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
      toggleFlag(FLAG_KEYS[key] as SiteFlag);
      return;
    }
    if (key === "backspace" || (key === "z" && (e.ctrlKey || e.metaKey))) {
      e.preventDefault();
      undo();
      return;
    }
    const at = cursorRef.current;
    const move: Record<string, PathStop | null> = {
      arrowright: nextStop(path, at),
      " ": nextStop(path, at),
      arrowleft: previousStop(path, at),
      n: nextToothStop(path, at),
    };
    if (key in move) {
      e.preventDefault();
      const to = move[key];
      if (to) setCursor(to);
      return;
    }
    if (key === "x") {
      e.preventDefault();
      markMissing();
    }
  };

  const cells = (teeth: number[], surface: Surface, field: Row) =>
    teeth.flatMap((tooth) => {
      const rec = getTooth(chart, tooth);
      return displaySites(tooth, surface).map((site: Site) => {
        const s = rec.sites[site];
        const value = s[field];
        const active = cursor.tooth === tooth && cursor.site === site && row === field;
        const flashed = flash.keys.includes(`${tooth}${site}${field}`);
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
            // Alternating names restart the animation when the same cell is written twice in a row.
            data-flash={flashed ? (flash.batch % 2 ? "a" : "b") : undefined}
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
          <th
            key={tooth}
            colSpan={3}
            scope="col"
            data-missing={rec.missing || undefined}
            data-flash={flash.keys.includes(`${tooth}`) ? (flash.batch % 2 ? "a" : "b") : undefined}
          >
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
