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
  const gmPoints: string[] = [];
  const calPoints: string[] = [];
  const bars: { x: number; y1: number; y2: number; band: string; bop: boolean; key: string }[] = [];
  teeth.forEach((tooth, ti) => {
    const rec = getTooth(chart, tooth);
    displaySites(tooth, surface).forEach((site, si) => {
      const x = (ti * 3 + si + 0.5) * COL;
      const s = rec.sites[site];
      if (rec.missing) return;
      const gm = s.gm ?? 0;
      if (s.gm !== null) gmPoints.push(`${x},${y(gm)}`);
      if (s.pd !== null) {
        calPoints.push(`${x},${y(gm + s.pd)}`);
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
      {gmPoints.length > 1 ? <polyline points={gmPoints.join(" ")} className="perio-gm-line" /> : null}
      {calPoints.length > 1 ? <polyline points={calPoints.join(" ")} className="perio-cal-line" /> : null}
    </svg>
  );
}
