// Builds app/services/speech/diarise/role-model.json, the model that tells which voice of a
// recording is the clinician's from what it says (docs/speech.md "Who said what"):
// naive Bayes over words and word pairs, trained on role-tagged dialogues —
//   - ACI-Bench and MTS-Dialog train dialogues whose dialogueRole is "train" (never the
//     validation splits, the bench's evaluation set);
//   - the OSCE transcripts (Fareez et al. 2022) except the six interviews with audio, so the
//     diarisation bench never scores role assignment on text the model has seen.
// All CC BY 4.0: the model ships with attribution (diarise/NOTICE.md); their text does not.
//
//   node scripts/build-role-model.ts [--min-count 4] [--max-features 6000] [--check]
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { normaliseText } from "#app/services/speech/text-normalise.ts";
import { allDialogues, dialogueRole } from "../bench/asr/datasets.ts";
import { OSCE_HELD_OUT, OSCE_TUNING, osceDir, parseOsceTranscript } from "../bench/asr/osce.ts";

const { values: opts } = parseArgs({
  options: {
    "min-count": { type: "string", default: "4" },
    "max-features": { type: "string", default: "6000" },
    check: { type: "boolean", default: false },
  },
});
const OUT = resolve(import.meta.dirname, "../app/services/speech/diarise/role-model.json");
const withAudio = new Set<string>([...OSCE_TUNING, ...OSCE_HELD_OUT]);

type Role = "clinician" | "patient";
const turns: { role: Role; text: string }[] = [];
const sources = { aciBench: 0, mtsDialog: 0, osce: 0 };
for (const dialogue of allDialogues()) {
  if (dialogueRole(dialogue.corpus, dialogue.split, dialogue.id) !== "train") continue;
  sources[dialogue.corpus === "aci-bench" ? "aciBench" : "mtsDialog"]++;
  for (const turn of dialogue.turns) {
    if (turn.speaker === "other") continue;
    turns.push({ role: turn.speaker === "doctor" ? "clinician" : "patient", text: turn.sentences.join(" ") });
  }
}
const osceFiles = readdirSync(join(osceDir(), "transcripts"))
  .filter((f) => f.endsWith(".txt") && !withAudio.has(f.replace(/\.txt$/, "")))
  .sort();
for (const file of osceFiles) {
  sources.osce++;
  for (const turn of parseOsceTranscript(readFileSync(join(osceDir(), "transcripts", file), "utf8"))) {
    turns.push({ role: turn.role, text: normaliseText(turn.text) });
  }
}
if (turns.length === 0) throw new Error("no role-tagged dialogues found: is ../shared/data there?");

const counts = { clinician: new Map<string, number>(), patient: new Map<string, number>() };
const totals = { clinician: 0, patient: 0 };
const turnCounts = { clinician: 0, patient: 0 };
for (const { role, text } of turns) {
  turnCounts[role]++;
  const words = text.split(" ").filter(Boolean);
  const features = [...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)];
  for (const feature of features) counts[role].set(feature, (counts[role].get(feature) ?? 0) + 1);
  totals[role] += features.length;
}
const minCount = Number(opts["min-count"]);
const vocabulary = new Set([...counts.clinician.keys(), ...counts.patient.keys()]);
const scored: [string, number, number][] = [];
for (const feature of vocabulary) {
  const c = counts.clinician.get(feature) ?? 0;
  const p = counts.patient.get(feature) ?? 0;
  if (c + p < minCount) continue;
  const llr = Math.log((c + 1) / (totals.clinician + vocabulary.size)) - Math.log((p + 1) / (totals.patient + vocabulary.size));
  scored.push([feature, llr, Math.abs(llr) * Math.log(c + p)]);
}
// Keep the features that carry most evidence over the corpus (|ratio| × log count).
scored.sort((a, b) => b[2] - a[2] || a[0].localeCompare(b[0]));
const features: Record<string, number> = {};
for (const [feature, llr] of scored.slice(0, Number(opts["max-features"])).sort((a, b) => a[0].localeCompare(b[0]))) {
  features[feature] = Math.round(llr * 100) / 100;
}
const model = {
  source:
    "scripts/build-role-model.ts: ACI-Bench + MTS-Dialog train dialogues (dialogueRole train) and OSCE (Fareez et al. 2022) transcripts without the six interviews that have audio; CC BY 4.0, see NOTICE.md",
  dialogues: sources,
  turns: turnCounts,
  prior: Math.round(Math.log(turnCounts.clinician / turnCounts.patient) * 100) / 100,
  features,
};
if (opts.check) {
  // Compared as data: the committed file is formatted by biome.
  if (JSON.stringify(JSON.parse(readFileSync(OUT, "utf8"))) !== JSON.stringify(model)) {
    console.error("role-model.json is stale: run node scripts/build-role-model.ts");
    process.exit(1);
  }
} else writeFileSync(OUT, `${JSON.stringify(model, null, 2)}\n`);
console.log(`${turns.length} turns (${JSON.stringify(sources)}), ${Object.keys(features).length} features`);
