// Issue 27's numbers: how often a note drafted from a real visit gets a contradiction it does not
// have (ACI-Bench; the detector's cues were tuned on train only — report valid), how many of the
// crafted contradictions are found (en/fr/es), and the time the checks add per note.
// `npm run bench:checks` (`--split train` to look at the tuning split, `--show` to print each flag).
import { performance } from "node:perf_hooks";
import { computeChecks } from "#app/services/notes/checks/compute.ts";
import { findContradictions } from "#app/services/notes/checks/contradictions.ts";
import { createExtractiveEngine, piecesFromDialogue } from "#app/services/notes/engines/extractive/index.ts";
import type { NoteSectionDraft, SectionKind } from "#app/services/notes/model.ts";
import { splitSentences } from "#app/services/notes/sentences.ts";
import { type AciSplit, aciBenchDir, loadAciSplit } from "./aci-data.ts";
import { ACI_TEMPLATE } from "./aci-template.ts";
import { CLEAN, CRAFTED } from "./contradiction-cases.ts";

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const split = (arg("--split") ?? "valid") as AciSplit;
const show = process.argv.includes("--show");
const engine = createExtractiveEngine();
const kinds = new Map<string, SectionKind>(ACI_TEMPLATE.sections.map((s) => [s.key, s.kind]));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** A reference note (plain text with upper-case headings) as sections of sentences, every heading "other" but the known ones. */
function referenceSections(note: string): NoteSectionDraft[] {
  const out: NoteSectionDraft[] = [];
  let current: NoteSectionDraft | null = null;
  for (const line of note.split(/\r?\n/)) {
    const heading = /^\s*([A-Z][A-Z &/]{2,})\s*$/.exec(line);
    if (heading) {
      const title = heading[1]?.trim() ?? "";
      current = { key: `${referenceKind(title)}_${out.length}`, title, text: "", sentences: [] };
      out.push(current);
      continue;
    }
    if (!current) {
      current = { key: "other_0", title: "", text: "", sentences: [] };
      out.push(current);
    }
    for (const s of splitSentences(line))
      current.sentences.push({ text: s, evidence: [], supported: true, source: "transcript" });
  }
  return out;
}

/** A reference heading's section kind, as the template's titles would say it. */
function referenceKind(title: string): SectionKind {
  if (/REVIEW OF SYSTEMS/.test(title)) return "ros";
  if (/EXAM/.test(title)) return "exam";
  if (/RESULT|IMAGING|LAB/.test(title)) return "results";
  if (/ASSESSMENT|PLAN|IMPRESSION/.test(title)) return "assessment_plan";
  if (/VITAL/.test(title)) return "vitals";
  if (/HISTORY|COMPLAINT|HPI|MEDICATION|ALLERG|SOCIAL|FAMILY/.test(title)) return "hpi";
  return "other";
}

async function main() {
  if (!aciBenchDir()) {
    console.log("ACI-Bench not found (set MURMUR_SHARED_DATA or place it in ../shared/data/aci-bench).");
    return;
  }
  const encounters = loadAciSplit(split);
  let flagged = 0;
  let referenceFlagged = 0;
  const times: number[] = [];
  const byCode = new Map<string, number>();
  for (const e of encounters) {
    const transcript = piecesFromDialogue(e.dialogue);
    const draft = await engine.generate({ template: ACI_TEMPLATE, transcript, language: "en" });
    const started = performance.now();
    // The time checks add to a note: everything computeChecks does beyond the omissions (computed before issue 27).
    computeChecks({ template: ACI_TEMPLATE, sections: draft.sections, language: "en", transcript, omissions: [], quality: null });
    times.push(performance.now() - started);
    const found = findContradictions(draft.sections, kinds, "en", transcript);
    if (found.length) flagged += 1;
    for (const c of found) byCode.set(`${c.code}/${c.against}`, (byCode.get(`${c.code}/${c.against}`) ?? 0) + 1);
    const refSections = referenceSections(e.note);
    const refKinds = new Map(refSections.map((s) => [s.key, s.key.replace(/_\d+$/, "") as SectionKind]));
    const reference = findContradictions(refSections, refKinds, "en");
    if (reference.length) referenceFlagged += 1;
    if (show)
      for (const c of [...found, ...reference.map((r) => ({ ...r, against: "reference" }))])
        console.log(`${e.id} ${c.code}/${c.against}\n  ${c.sentence}\n  ↔ ${c.other.slice(0, 200)}`);
  }
  const n = encounters.length;
  const pct = (k: number, of: number) => `${((100 * k) / Math.max(1, of)).toFixed(1)}%`;
  console.log(`ACI-Bench ${split}: ${n} notes drafted by the extractive engine`);
  console.log(
    `  notes with no contradiction flagged: ${n - flagged}/${n} (${pct(n - flagged, n)}); flagged ${flagged} (${pct(flagged, n)})`,
  );
  console.log(`  flags by code: ${[...byCode].map(([k, v]) => `${k} ${v}`).join(", ") || "none"}`);
  console.log(`  reference (human-written) notes with a flag: ${referenceFlagged}/${n} (${pct(referenceFlagged, n)})`);
  console.log(
    `  time added per note (computeChecks without omissions): p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms`,
  );

  let detected = 0;
  for (const c of CRAFTED) {
    const kindsOf = new Map<string, SectionKind>();
    const sections = c.sections.map(([kind, sentences], i): NoteSectionDraft => {
      kindsOf.set(`${kind}_${i}`, kind);
      return {
        key: `${kind}_${i}`,
        title: kind,
        text: "",
        sentences: sentences.map((text) => ({ text, evidence: [], supported: true, source: "transcript" })),
      };
    });
    const found = findContradictions(
      sections,
      kindsOf,
      c.language,
      c.transcript ? piecesFromDialogue(c.transcript.join("\n")) : [],
    );
    if (found.some((f) => f.code === c.expect && f.against === (c.against ?? "note"))) detected += 1;
    else console.log(`  missed: ${c.name}`);
  }
  console.log(
    `Crafted set: ${detected}/${CRAFTED.length} contradictions found (${pct(detected, CRAFTED.length)}), ${CLEAN.length} clean cases in tests/notes/contradictions.test.ts`,
  );
}

await main();
