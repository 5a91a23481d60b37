import { getTooth, type PerioChartData } from "#app/services/perio/model.ts";
import { displaySites, pdBand, type Surface } from "./chart-layout.ts";

// The classic graphic chart for one surface of one arch: teeth drawn as crown + root, the CEJ line,
// the gingival margin line (GM) and the attachment line (GM + PD), with a bar for each probing
// depth between them. Roots point up on the upper arch and down on the lower.

const COL = 14;
const MM = 5;
const CEJ = 24;
const HEIGHT = 120;

export function PerioArchSvg({
  chart,
  teeth,
  surface,
  upper,
}: {
  chart: PerioChartData;
  teeth: number[];
  surface: Surface;
  upper: boolean;
}) {
  const width = teeth.length * 3 * COL;
  // y of a depth in mm apical of the CEJ (towards the root).
  const y = (mm: number) => (upper ? HEIGHT - CEJ - mm * MM : CEJ + mm * MM);
  // The lines break where nothing was measured (a missing tooth, a site not probed yet): a line
  // drawn straight across unprobed teeth would show an attachment level nobody recorded.
  const gmRuns: string[][] = [[]];
  const calRuns: string[][] = [[]];
  const point = (runs: string[][], p: string | null) => {
    const last = runs[runs.length - 1] as string[];
    if (p !== null) last.push(p);
    else if (last.length) runs.push([]);
  };
  const bars: { x: number; y1: number; y2: number; band: string; bop: boolean; key: string }[] = [];
  teeth.forEach((tooth, ti) => {
    const rec = getTooth(chart, tooth);
    displaySites(tooth, surface).forEach((site, si) => {
      const x = (ti * 3 + si + 0.5) * COL;
      const s = rec.sites[site];
      if (rec.missing) {
        point(gmRuns, null);
        point(calRuns, null);
        return;
      }
      const gm = s.gm ?? 0;
      point(gmRuns, s.gm !== null ? `${x},${y(gm)}` : null);
      point(calRuns, s.pd !== null ? `${x},${y(gm + s.pd)}` : null);
      if (s.pd !== null) {
        bars.push({ x, y1: y(gm), y2: y(gm + s.pd), band: pdBand(s.pd), bop: s.bop, key: `${tooth}${site}` });
      }
    });
  });
  return (
    <svg className="perio-svg" viewBox={`0 0 ${width} ${HEIGHT}`} width={width} height={HEIGHT} aria-hidden="true">
      {teeth.map((tooth, ti) => {
        const rec = getTooth(chart, tooth);
        const x0 = ti * 3 * COL + 4;
        const w = 3 * COL - 8;
        const crownY = upper ? HEIGHT - CEJ : 2;
        const rootY = upper ? 8 : CEJ;
        return (
          <g key={tooth} className="perio-tooth" data-missing={rec.missing || undefined} data-implant={rec.implant || undefined}>
            <rect x={x0} y={crownY} width={w} height={CEJ - 2} rx={5} className="perio-crown" />
            <path
              d={
                upper
                  ? `M${x0 + 3},${rootY + HEIGHT - CEJ - 8} L${x0 + w / 2},${rootY} L${x0 + w - 3},${rootY + HEIGHT - CEJ - 8}`
                  : `M${x0 + 3},${rootY} L${x0 + w / 2},${HEIGHT - 8} L${x0 + w - 3},${rootY}`
              }
              className="perio-root"
            />
            {rec.missing ? <line x1={x0} y1={4} x2={x0 + w} y2={HEIGHT - 4} className="perio-missing-mark" /> : null}
          </g>
        );
      })}
      <line x1={0} x2={width} y1={y(0)} y2={y(0)} className="perio-cej" />
      {bars.map((b) => (
        <line
          key={b.key}
          x1={b.x}
          x2={b.x}
          y1={b.y1}
          y2={b.y2}
          className="perio-bar"
          data-band={b.band}
          data-bop={b.bop || undefined}
        />
      ))}
      {gmRuns
        .filter((run) => run.length > 1)
        .map((run) => (
          <polyline key={`gm${run[0]}`} points={run.join(" ")} className="perio-gm-line" />
        ))}
      {calRuns
        .filter((run) => run.length > 1)
        .map((run) => (
          <polyline key={`cal${run[0]}`} points={run.join(" ")} className="perio-cal-line" />
        ))}
    </svg>
  );
}
