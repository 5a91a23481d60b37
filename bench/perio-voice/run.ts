// Voice-charting benchmark (issue 14 "Accuracy on real human speech"; ADR 0014): chains recordings of
// single spoken numbers into site triplets ("three two three") with 150–400 ms pauses, decodes each
// triplet with the recogniser and grammar the chart uses (app/services/perio/voice-*.ts) in Node, and
// reports digit accuracy ((N − substitutions − deletions − insertions) / N), triplet accuracy (all
// three values right) and the time from the end of each utterance's audio to its text.
//
//   npm run bench:perio-voice -- --digits-dir <folder> [--lang en|fr] [--limit N] [--seed S] [--takes a-b]
//
// Any folder of WAVs named {digit}_{speaker}_{take}.wav (16-bit PCM, any rate, mono or stereo) works,
// e.g. ../shared/data/speech-digits/recordings. Triplets never mix speakers (one hygienist speaks). The
// recordings are read at bench time only; the app never reads them. The last line is always
// `digit accuracy: <percent>% over <n> digits; triplet accuracy: <percent>%`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import createModule from "soundswallower";
import { parseVoice, type VoiceLanguage } from "#app/services/perio/voice-grammar.ts";
import { createPerioDecoder, decodeUtterance, resampleTo, VOICE_SAMPLE_RATE } from "#app/services/perio/voice-recogniser.ts";

const { values: opts } = parseArgs({
  options: {
    "digits-dir": { type: "string" },
    lang: { type: "string", default: "en" },
    limit: { type: "string" },
    seed: { type: "string", default: "14" },
    takes: { type: "string" },
    verbose: { type: "boolean", default: false },
  },
});
const dir = opts["digits-dir"];
if (!dir) {
  console.error("usage: npm run bench:perio-voice -- --digits-dir <folder of {digit}_{speaker}_{take}.wav>");
  process.exit(2);
}
const lang = opts.lang as VoiceLanguage;
if (lang !== "en" && lang !== "fr") throw new Error("--lang must be en or fr");

// ---- files
const NAME = /^(\d{1,2})_([^_]+)_(\d+)\.wav$/i;
type Clip = { path: string; value: number; speaker: string; take: number };
function listClips(folder: string, depth = 0): Clip[] {
  const out: Clip[] = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (depth < 1 && statSync(path).isDirectory()) out.push(...listClips(path, depth + 1));
    const m = NAME.exec(name);
    if (m && Number(m[1]) <= 15) out.push({ path, value: Number(m[1]), speaker: m[2] as string, take: Number(m[3]) });
  }
  return out;
}
let clips = listClips(dir);
if (opts.takes) {
  const [lo, hi] = opts.takes.split("-").map(Number) as [number, number];
  clips = clips.filter((c) => c.take >= lo && c.take <= (hi ?? lo));
}

// ---- deterministic shuffling, pauses and noise floor
let state = Number(opts.seed) >>> 0 || 1;
const random = () => {
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  return state / 2 ** 32;
};
for (let i = clips.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [clips[i], clips[j]] = [clips[j] as Clip, clips[i] as Clip];
}
if (opts.limit) clips = clips.slice(0, Number(opts.limit));
if (clips.length === 0) {
  console.error(`no {digit}_{speaker}_{take}.wav files in ${dir}`);
  process.exit(1);
}

function readWav(path: string): { samples: Float32Array; rate: number } {
  const b = readFileSync(path);
  if (b.toString("ascii", 0, 4) !== "RIFF" || b.toString("ascii", 8, 12) !== "WAVE") throw new Error(`${path}: not a WAV file`);
  let offset = 12;
  let rate = 0;
  let channels = 1;
  let bits = 16;
  while (offset + 8 <= b.length) {
    const id = b.toString("ascii", offset, offset + 4);
    const size = b.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      channels = b.readUInt16LE(body + 2);
      rate = b.readUInt32LE(body + 4);
      bits = b.readUInt16LE(body + 14);
    } else if (id === "data") {
      if (bits !== 16) throw new Error(`${path}: only 16-bit PCM is supported`);
      const frames = Math.floor(Math.min(size, b.length - body) / (2 * channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) {
        let v = 0;
        for (let c = 0; c < channels; c++) v += b.readInt16LE(body + 2 * (i * channels + c));
        samples[i] = v / channels / 32768;
      }
      return { samples, rate };
    }
    offset = body + size + (size % 2);
  }
  throw new Error(`${path}: no data chunk`);
}

const NOISE = 0.003; // a quiet microphone's noise floor (about −50 dBFS), so pauses are not digital silence
const FADE_S = 0.03; // the recordings are cut tight: fade their edges instead of a click into the pause
const EDGE_S = 0.3; // silence before and after the triplet, as the endpointer hands it over

function clipAudio(c: Clip): Float32Array {
  const { samples, rate } = readWav(c.path);
  const a = resampleTo(samples, rate, VOICE_SAMPLE_RATE);
  const f = Math.min(Math.round(VOICE_SAMPLE_RATE * FADE_S), Math.floor(a.length / 2));
  for (let i = 0; i < f; i++) {
    const g = 0.5 - 0.5 * Math.cos((Math.PI * i) / f);
    a[i] = (a[i] as number) * g;
    a[a.length - 1 - i] = (a[a.length - 1 - i] as number) * g;
  }
  return a;
}

function chain(parts: Float32Array[]): Float32Array {
  const gaps = parts.slice(1).map(() => Math.round(VOICE_SAMPLE_RATE * (0.15 + 0.25 * random())));
  const edge = Math.round(VOICE_SAMPLE_RATE * EDGE_S);
  const total = 2 * edge + parts.reduce((n, p) => n + p.length, 0) + gaps.reduce((n, g) => n + g, 0);
  const out = new Float32Array(total);
  let at = edge;
  parts.forEach((p, i) => {
    out.set(p, at);
    at += p.length + (gaps[i] ?? 0);
  });
  for (let i = 0; i < total; i++) out[i] = (out[i] as number) + (random() - 0.5) * NOISE;
  return out;
}

/** Substitutions + deletions + insertions between the reference and the recognised values. */
function editDistance(ref: number[], hyp: number[]): number {
  const d = Array.from({ length: ref.length + 1 }, (_, i) => [i, ...hyp.map(() => 0)]);
  for (let j = 1; j <= hyp.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= ref.length; i++)
    for (let j = 1; j <= hyp.length; j++)
      (d[i] as number[])[j] = Math.min(
        ((d[i - 1] as number[])[j] as number) + 1,
        ((d[i] as number[])[j - 1] as number) + 1,
        ((d[i - 1] as number[])[j - 1] as number) + (ref[i - 1] === hyp[j - 1] ? 0 : 1),
      );
  return (d[ref.length] as number[])[hyp.length] as number;
}

// ---- triplets per speaker
const bySpeaker = new Map<string, Clip[]>();
for (const c of clips) bySpeaker.set(c.speaker, [...(bySpeaker.get(c.speaker) ?? []), c]);
const utterances: Clip[][] = [];
for (const list of bySpeaker.values()) for (let i = 0; i < list.length; i += 3) utterances.push(list.slice(i, i + 3));

const started = performance.now();
// modelBase is read by the package's loader but missing from its type declarations.
const modelBase = new URL("../../node_modules/soundswallower/model/", import.meta.url).pathname;
const ss = await createModule({ modelBase } as Parameters<typeof createModule>[0]);
const decoder = await createPerioDecoder(ss, lang);
const initMs = performance.now() - started;

let digits = 0;
let errors = 0;
let triplets = 0;
let tripletsRight = 0;
let audioSeconds = 0;
let decodeMs = 0;
const latencies: number[] = [];
const perSpeaker = new Map<string, { n: number; e: number }>();
for (const utt of utterances) {
  const audio = chain(utt.map(clipAudio));
  audioSeconds += audio.length / VOICE_SAMPLE_RATE;
  const t0 = performance.now();
  const { text, finalizeMs } = decodeUtterance(decoder, audio);
  decodeMs += performance.now() - t0;
  latencies.push(finalizeMs);
  const command = parseVoice(text, lang);
  const hyp = command?.kind === "values" ? command.values : [];
  const ref = utt.map((c) => c.value);
  const e = Math.min(editDistance(ref, hyp), ref.length);
  digits += ref.length;
  errors += e;
  if (ref.length === 3) {
    triplets++;
    if (e === 0 && hyp.length === 3) tripletsRight++;
  }
  const s = perSpeaker.get(utt[0]?.speaker ?? "") ?? { n: 0, e: 0 };
  perSpeaker.set(utt[0]?.speaker ?? "", { n: s.n + ref.length, e: s.e + e });
  if (opts.verbose && e > 0) console.log(`${ref.join(" ")} → "${text}"`);
}
const pct = (x: number) => (Math.round(x * 1000) / 10).toFixed(1);
latencies.sort((a, b) => a - b);
const q = (p: number) => (latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] as number).toFixed(1);
console.log(`files: ${clips.length} from ${dir} (${bySpeaker.size} speakers), language ${lang}, seed ${opts.seed}`);
console.log(
  `model load + grammar: ${initMs.toFixed(0)} ms; audio ${audioSeconds.toFixed(0)} s decoded in ${(decodeMs / 1000).toFixed(1)} s (${(audioSeconds / (decodeMs / 1000)).toFixed(1)}× real time)`,
);
for (const [speaker, s] of [...perSpeaker].sort()) console.log(`  ${speaker}: ${pct(1 - s.e / s.n)}% of ${s.n} digits`);
console.log(
  `latency from end of utterance audio to text (ms): median ${q(0.5)}, p95 ${q(0.95)}, max ${q(1)} over ${latencies.length} utterances`,
);
console.log(
  `digit accuracy: ${pct(1 - errors / digits)}% over ${digits} digits; triplet accuracy: ${pct(triplets ? tripletsRight / triplets : 0)}%`,
);
