// Summarise a V8 .cpuprofile (from `bench:load --cpu-prof-dir`): the top functions by self time
// and by inclusive time, as shares of the sampled time, so that runs on a busy shared machine can
// be compared (absolute milliseconds move with the neighbours, shares much less).
//
// Usage: node bench/load/profile.ts FILE.cpuprofile [--top 25] [--match substring]
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "25" }, match: { type: "string" } },
});
const file = positionals[0];
if (!file) throw new Error("usage: node bench/load/profile.ts FILE.cpuprofile [--top 25] [--match substring]");
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
const top = Number(values.top);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const label = (f: CallFrame) =>
  `${f.functionName || "(anonymous)"} ${f.url ? `${path.basename(f.url.replace(/^file:\/\//, ""))}:${f.lineNumber + 1}` : ""}`.trim();

// Self time per node from the samples (each sample's delta is the time until the next sample).
const selfUs = new Map<number, number>();
let total = 0;
let idle = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i + 1] ?? 0;
  total += dt;
  const fn = byId.get(id)?.callFrame.functionName;
  if (fn === "(idle)" || fn === "(program)") idle += fn === "(idle)" ? dt : 0;
  selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
});
const busy = total - idle;

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (!node || node.callFrame.functionName === "(idle)") continue;
  const key = label(node.callFrame);
  self.set(key, (self.get(key) ?? 0) + us);
  // Count each function once per stack (recursion must not double its inclusive time).
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const k = label((byId.get(cur) as ProfileNode).callFrame);
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + us);
  }
}

const pct = (us: number) => `${((100 * us) / busy).toFixed(1)} %`;
const table = (title: string, m: Map<string, number>) => {
  const rows = [...m]
    .filter(([k]) => !values.match || k.includes(values.match))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
  console.log(`\n## ${title} (share of busy time)\n\n| function | share |\n|---|---|`);
  for (const [k, us] of rows) console.log(`| ${k.replaceAll("|", "\\|")} | ${pct(us)} |`);
};
console.log(
  `${path.basename(file)}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${((100 * busy) / total).toFixed(0)} % of wall)`,
);
table("Self time", self);
table("Inclusive time", inclusive);
