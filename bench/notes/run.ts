// ROUGE of the extractive engine on ACI-Bench train and valid, beside the corpus's published
// baselines (test1), plus time per note, then the register table (issue 18: person, fillers,
// fragments, sentence length per section, beside the reference notes measured the same way) and
// MTS-Dialog. `npm run bench:notes` (add `--show <id>` to print a note, `--mts` for MTS-Dialog only,
// `--runs N` to time each ACI-Bench note N times on a busy machine).
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { createExtractiveEngine, piecesFromDialogue, renderNoteText } from "#app/services/notes/engines/extractive/index.ts";
import { type AciEncounter, type AciSplit, aciBenchDir, loadAciSplit } from "./aci-data.ts";
import { ACI_TEMPLATE } from "./aci-template.ts";
import { loadMtsSplit, type MtsSplit, mtsKind, mtsTemplate } from "./mts-data.ts";
import { REGISTER_SECTIONS, type RegisterSection, registerOf, registerRow } from "./register.ts";
import { meanRouge } from "./rouge.ts";

const PUBLISHED_TEST1: [string, number, number, number][] = [
  ["transcript copy", 32.84, 12.53, 30.61],
  ["12 doctor turns (best transcript baseline)", 35.88, 12.44, 32.72],
  ["BART", 41.76, 19.2, 34.7],
  ["BART (division)", 51.56, 24.06, 45.92],
  ["GPT-4", 51.76, 22.58, 45.97],
];

const engine = createExtractiveEngine();
const RUNS = Math.max(1, Number(process.argv[process.argv.indexOf("--runs") + 1]) || 1);

/** `withSex`: give the engine the patient's sex as the app's visit would (ACI-Bench metadata), for he/she. */
async function generate(encounter: AciEncounter, withSex = true): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  const sex = withSex ? encounter.patientSex : undefined;
  const draft = await engine.generate({
    template: ACI_TEMPLATE,
    transcript: piecesFromDialogue(encounter.dialogue),
    language: "en",
    ...(sex ? { context: { patient: { sex } } } : {}),
  });
  const text = renderNoteText(ACI_TEMPLATE, draft);
  return { text, ms: performance.now() - started };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

const fmt = (n: number) => n.toFixed(2).padStart(6);

async function main() {
  if (!aciBenchDir()) {
    console.log("ACI-Bench not found (set MURMUR_SHARED_DATA or place it in ../shared/data/aci-bench).");
    return;
  }
  const show = process.argv.indexOf("--show");
  if (show > 0) {
    const id = process.argv[show + 1];
    const encounter = [...loadAciSplit("train"), ...loadAciSplit("valid")].find((e) => e.id === id);
    if (!encounter) throw new Error(`no encounter ${id}`);
    console.log((await generate(encounter)).text);
    console.log("\n=== reference ===\n");
    console.log(encounter.note);
    return;
  }
  if (process.argv.includes("--mts")) {
    await mts();
    return;
  }
  // Time per note depends on what else the machine runs: say so beside the figures.
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} on ${cpus().length} cores (timings are wall-clock)\n`,
  );
  const notes = new Map<AciSplit, { ours: string[]; gold: string[] }>();
  console.log("split                notes  ROUGE-1 ROUGE-2 ROUGE-Lsum  words  ms/note mean    p95  longest (dialogue words)");
  for (const [split, withSex] of [
    ["train", true],
    ["valid", true],
    ["train", false],
    ["valid", false],
  ] as [AciSplit, boolean][]) {
    const encounters = loadAciSplit(split);
    if (encounters[0]) await generate(encounters[0], withSex); // warm-up: module compilation is not per-note time
    const pairs: { target: string; prediction: string }[] = [];
    const times: number[] = [];
    let words = 0;
    let longest = { words: 0, ms: 0 };
    for (const encounter of encounters) {
      const { text, ms } = await generate(encounter, withSex);
      pairs.push({ target: encounter.note, prediction: text });
      times.push(ms);
      // `--runs N`: each note timed N times (the engine is deterministic, so the text is the same).
      for (let run = 1; run < RUNS; run++) times.push((await generate(encounter, withSex)).ms);
      words += text.split(/\s+/).length;
      const dialogueWords = encounter.dialogue.split(/\s+/).length;
      if (dialogueWords > longest.words) longest = { words: dialogueWords, ms };
    }
    if (withSex) notes.set(split, { ours: pairs.map((p) => p.prediction), gold: pairs.map((p) => p.target) });
    const r = meanRouge(pairs);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    const label = `${split}${withSex ? "" : " (sex unknown)"}`;
    console.log(
      `${label.padEnd(20)} ${String(encounters.length).padStart(5)}   ${fmt(r.r1)}  ${fmt(r.r2)}  ${fmt(r.rlsum)}   ${String(Math.round(words / encounters.length)).padStart(5)}  ${fmt(mean)}  ${fmt(percentile(times, 95))}  ${fmt(longest.ms)} (${longest.words})`,
    );
  }
  console.log("\npublished (ACI-Bench test1, same metric definitions):");
  for (const [name, r1, r2, rl] of PUBLISHED_TEST1) console.log(`  ${name.padEnd(44)} ${fmt(r1)}  ${fmt(r2)}  ${fmt(rl)}`);
  console.log(
    "\nregister (ACI-Bench; engine | reference notes): sentences, % 1st/2nd person, % with a filler, % without a verb, words per sentence",
  );
  for (const [split, { ours, gold }] of notes) registerTable(`ACI ${split}`, registerOf(ours), registerOf(gold));
  await mts();
}

const REGISTER_HEADER = "                    engine: sent  1/2p fill frag words | reference: sent  1/2p fill frag words";

function registerTable(
  label: string,
  ours: ReturnType<typeof registerOf>,
  gold: ReturnType<typeof registerOf>,
  sections: (RegisterSection | "all")[] = ["all", ...REGISTER_SECTIONS],
) {
  console.log(`\n${label}\n${REGISTER_HEADER}`);
  for (const section of sections)
    console.log(
      `  ${section.padEnd(16)}         ${registerRow(ours.get(section))} |            ${registerRow(gold.get(section))}`,
    );
}

/** MTS-Dialog: each dialogue written as the one section its reference is (no title), ROUGE and register per split. */
async function mts() {
  console.log("\nMTS-Dialog (one section per dialogue, written without its title)");
  console.log("split   rows  ROUGE-1 ROUGE-2 ROUGE-Lsum  empty  ms/note mean    p95");
  const tables: [MtsSplit, string[][], string[][]][] = [];
  for (const split of ["train", "valid"] as MtsSplit[]) {
    const rows = loadMtsSplit(split);
    if (rows.length === 0) continue;
    const pairs: { target: string; prediction: string }[] = [];
    const ours: string[][] = REGISTER_SECTIONS.map(() => []);
    const gold: string[][] = REGISTER_SECTIONS.map(() => []);
    let empty = 0;
    const times: number[] = [];
    for (const row of rows) {
      const template = mtsTemplate(row.header);
      const started = performance.now();
      const draft = await engine.generate({ template, transcript: piecesFromDialogue(row.dialogue), language: "en" });
      const text = renderNoteText(template, draft);
      times.push(performance.now() - started);
      if (!text.trim()) empty += 1;
      pairs.push({ target: row.note, prediction: text });
      const at = REGISTER_SECTIONS.indexOf(mtsKind(row.header).register);
      ours[at]?.push(text);
      gold[at]?.push(row.note);
    }
    const r = meanRouge(pairs);
    console.log(
      `${split.padEnd(6)} ${String(rows.length).padStart(5)}   ${fmt(r.r1)}  ${fmt(r.r2)}  ${fmt(r.rlsum)}  ${String(empty).padStart(5)}  ${fmt(times.reduce((a, b) => a + b, 0) / times.length)}  ${fmt(percentile(times, 95))}`,
    );
    tables.push([split, ours, gold]);
  }
  for (const [split, ours, gold] of tables) {
    const merge = (texts: string[][]) => {
      const out: ReturnType<typeof registerOf> = new Map();
      REGISTER_SECTIONS.forEach((section, i) => {
        const r = registerOf(texts[i] ?? [], section);
        for (const [key, c] of r) {
          const into = out.get(key) ?? out.set(key, { sentences: 0, person: 0, filler: 0, fragment: 0, words: 0 }).get(key);
          if (into) for (const k of Object.keys(c) as (keyof typeof c)[]) into[k] += c[k];
        }
      });
      return out;
    };
    registerTable(`MTS ${split}`, merge(ours), merge(gold), [
      "all",
      "chief_complaint",
      "hpi",
      "ros",
      "exam",
      "results",
      "assessment_plan",
    ]);
  }
}

await main();
