// Voice-charting benchmark (issue 14 "Accuracy on real human speech"; ADR 0014): chains recordings of
// single spoken numbers into site triplets ("three two three") with 150–400 ms pauses, decodes each
// triplet with the recogniser and grammar the chart uses (app/services/perio/voice-*.ts) in Node, and
// reports digit accuracy ((N − substitutions − deletions − insertions) / N), triplet accuracy (all
// three values right), the accuracy of what the confidence threshold lets through to the chart, and
// the time from the end of each utterance's audio to its text.
//
//   npm run bench:perio-voice -- --digits-dir <folder> [--lang en|fr] [--limit N] [--seed S] [--takes a-b] [--verbose] [--confusions]
//
// Any folder of WAVs named {digit}_{speaker}_{take}.wav (16-bit PCM, any rate, mono or stereo) works,
// e.g. ../shared/data/speech-digits/recordings. Triplets never mix speakers (one hygienist speaks), and
// like the browser, each speaker's session has its own decoder fed utterances in sequence, so live CMN
// starts cold and adapts as it would in a real session. The recordings are read at bench time only;
// the app never reads them. The last line is always
// `digit accuracy: <percent>% over <n> digits; triplet accuracy: <percent>%`.
import { parseArgs } from "node:util";
import createModule from "soundswallower";
import { LEXICONS, parseVoice, type VoiceLanguage } from "#app/services/perio/voice-grammar.ts";
import { buildProfile, refineWithProfile, type VoiceProfile } from "#app/services/perio/voice-profile.ts";
import { createPerioDecoder, decodeUtterance, VOICE_SAMPLE_RATE } from "#app/services/perio/voice-recogniser.ts";
import { align, buildCorpus, clipAudio, listClips, tallyEdits } from "./corpus.ts";

const { values: opts } = parseArgs({
  options: {
    "digits-dir": { type: "string" },
    lang: { type: "string", default: "en" },
    limit: { type: "string" },
    seed: { type: "string", default: "14" },
    takes: { type: "string" },
    verbose: { type: "boolean", default: false },
    confusions: { type: "boolean", default: false },
    // Voice profiles (ADR 0035): each speaker enrols with these takes of 0–9 (keep them out of --takes).
    "enrol-takes": { type: "string" },
  },
});
const dir = opts["digits-dir"];
if (!dir) {
  console.error("usage: npm run bench:perio-voice -- --digits-dir <folder of {digit}_{speaker}_{take}.wav>");
  process.exit(2);
}
const lang = opts.lang as VoiceLanguage;
if (lang !== "en" && lang !== "fr") throw new Error("--lang must be en or fr");

const started = performance.now();
const enrolTakes = opts["enrol-takes"]
  ? ((([lo, hi]) => [lo, hi ?? lo])(opts["enrol-takes"].split("-").map(Number)) as [number, number])
  : undefined;
const { clips, utterances } = buildCorpus(dir, {
  seed: Number(opts.seed),
  takes: opts.takes,
  limit: opts.limit ? Number(opts.limit) : undefined,
  excludeTakes: enrolTakes,
});
if (clips.length === 0) {
  console.error(`no {digit}_{speaker}_{take}.wav files in ${dir}`);
  process.exit(1);
}
// modelBase is read by the package's loader but missing from its type declarations.
const modelBase = new URL("../../node_modules/soundswallower/model/", import.meta.url).pathname;
const ss = await createModule({ modelBase } as Parameters<typeof createModule>[0]);
const initStarted = performance.now();
let decoder = await createPerioDecoder(ss, lang);
const initMs = performance.now() - initStarted;

/** The speaker's enrolment: each of 0–9 in the enrol takes, one utterance each, as the voice mode records it. */
function profileFor(speakerName: string): VoiceProfile | null {
  if (!enrolTakes) return null;
  const [lo, hi] = enrolTakes;
  const takes = listClips(dir as string)
    .filter((c) => c.speaker === speakerName && c.value <= 9 && c.take >= lo && c.take <= hi)
    .map((c) => ({ value: c.value, audio: clipAudio(c) }));
  return takes.length > 0 ? buildProfile(decoder, lang, takes) : null;
}

let digits = 0;
let errors = 0;
let triplets = 0;
let tripletsRight = 0;
let audioSeconds = 0;
let decodeMs = 0;
// What reaches the chart: results outside the grammar (or not values) are shown as "not understood";
// `scored` keeps each written result's word posterior to show what a threshold on it would do.
const scored: { confidence: number; right: boolean }[] = [];
const latencies: number[] = [];
const perSpeaker = new Map<string, { n: number; e: number }>();
const edits = new Map<string, number>();
let speaker: string | null = null;
let profile: VoiceProfile | null = null;
for (const utt of utterances) {
  if (speaker !== null && utt.speaker !== speaker) {
    // A new hygienist switches voice mode on: a new decoder, so no CMN carried over from someone else.
    decoder.delete();
    decoder = await createPerioDecoder(ss, lang);
  }
  if (utt.speaker !== speaker) profile = profileFor(utt.speaker);
  speaker = utt.speaker;
  audioSeconds += utt.audio.length / VOICE_SAMPLE_RATE;
  const t0 = performance.now();
  const decoded = decodeUtterance(decoder, utt.audio);
  const { confidence } = decoded;
  // The profile's check runs after the decoder's result, so it is part of the wait for the value.
  const refineStarted = performance.now();
  const text = profile ? refineWithProfile(decoder, profile, utt.audio, LEXICONS[lang].numbers, VOICE_SAMPLE_RATE) : decoded.text;
  const finalizeMs = decoded.finalizeMs + (performance.now() - refineStarted);
  decodeMs += performance.now() - t0;
  latencies.push(finalizeMs);
  const command = parseVoice(text, lang);
  const hyp = command?.kind === "values" ? command.values : [];
  const ed = align(utt.ref, hyp);
  tallyEdits(ed, edits);
  const e = Math.min(ed.length, utt.ref.length);
  digits += utt.ref.length;
  errors += e;
  if (utt.ref.length === 3) {
    triplets++;
    if (e === 0 && hyp.length === 3) tripletsRight++;
  }
  if (command !== null) scored.push({ confidence, right: e === 0 && hyp.length === utt.ref.length });
  const s = perSpeaker.get(utt.speaker) ?? { n: 0, e: 0 };
  perSpeaker.set(utt.speaker, { n: s.n + utt.ref.length, e: s.e + e });
  if (opts.verbose && e > 0)
    console.log(`${utt.speaker}: ${utt.ref.join(" ")} → "${text}" (confidence ${confidence.toFixed(2)})`);
}
decoder.delete();
const pct = (x: number) => (Math.round(x * 1000) / 10).toFixed(1);
latencies.sort((a, b) => a - b);
const q = (p: number) => (latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] as number).toFixed(1);
if (opts.confusions) {
  console.log("errors by kind (reference→recognised, del = missed, ins = extra), most frequent first:");
  for (const [k, v] of [...edits].sort((a, b) => b[1] - a[1])) console.log(`  ${k}: ${v}`);
}
console.log(
  `files: ${clips.length} from ${dir} (${perSpeaker.size} speakers), language ${lang}, seed ${opts.seed}` +
    (enrolTakes ? `; voice profiles from takes ${enrolTakes.join("-")} of 0–9 per speaker (not scored)` : "; no voice profiles"),
);
console.log(
  `model load + grammar: ${initMs.toFixed(0)} ms; audio ${audioSeconds.toFixed(0)} s decoded in ${(decodeMs / 1000).toFixed(1)} s (${(audioSeconds / (decodeMs / 1000)).toFixed(1)}× real time); wall ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
for (const [name, s] of [...perSpeaker].sort()) console.log(`  ${name}: ${pct(1 - s.e / s.n)}% of ${s.n} digits`);
const written = (t: number) => {
  const kept = scored.filter((x) => x.confidence >= t);
  const right = kept.filter((x) => x.right).length;
  return `${t === 0 ? "as shipped (no threshold)" : `posterior ≥ ${t}`}: ${pct(1 - kept.length / utterances.length)}% rejected, ${pct(kept.length ? right / kept.length : 0)}% of written utterances right, ${kept.length - right} wrong written`;
};
console.log(`written to the chart — ${[0, 0.85, 0.88, 0.9].map(written).join("; ")}`);
console.log(
  `latency from end of utterance audio to text (ms): median ${q(0.5)}, p95 ${q(0.95)}, max ${q(1)} over ${latencies.length} utterances`,
);
console.log(
  `digit accuracy: ${pct(1 - errors / digits)}% over ${digits} digits; triplet accuracy: ${pct(triplets ? tripletsRight / triplets : 0)}%`,
);
