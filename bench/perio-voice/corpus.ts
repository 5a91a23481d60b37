// The bench corpus (issue 14; ADR 0014): reads {digit}_{speaker}_{take}.wav files, shuffles them with a
// seed and chains three recordings of one speaker into a site triplet with 150–400 ms pauses, a
// −50 dBFS noise floor and faded edges. Shared by run.ts (the reported figures) and tune.ts (the sweep
// on the tuning takes) so both decode exactly the same audio for the same seed.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { resampleTo, VOICE_SAMPLE_RATE } from "#app/services/perio/voice-recogniser.ts";

const NAME = /^(\d{1,2})_([^_]+)_(\d+)\.wav$/i;
export type Clip = { path: string; value: number; speaker: string; take: number };
export type Utterance = { speaker: string; ref: number[]; audio: Float32Array };

export function listClips(folder: string, depth = 0): Clip[] {
  const out: Clip[] = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (depth < 1 && statSync(path).isDirectory()) out.push(...listClips(path, depth + 1));
    const m = NAME.exec(name);
    if (m && Number(m[1]) <= 15) out.push({ path, value: Number(m[1]), speaker: m[2] as string, take: Number(m[3]) });
  }
  return out;
}

export function readWav(path: string): { samples: Float32Array; rate: number } {
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

export function clipAudio(c: Clip): Float32Array {
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

/**
 * The utterances for a folder: shuffled with the seed, optionally limited to a take range and a
 * number of files, grouped per speaker in order (one hygienist speaks a session's triplets in turn).
 */
export function buildCorpus(
  dir: string,
  opts: { seed: number; takes?: string; limit?: number; excludeTakes?: [number, number] },
): { clips: Clip[]; utterances: Utterance[] } {
  let clips = listClips(dir);
  // Takes a voice profile was built from are never scored (run.ts --enrol-takes).
  const ex = opts.excludeTakes;
  if (ex) clips = clips.filter((c) => c.take < ex[0] || c.take > ex[1]);
  if (opts.takes) {
    const [lo, hi] = opts.takes.split("-").map(Number) as [number, number];
    clips = clips.filter((c) => c.take >= lo && c.take <= (hi ?? lo));
  }
  let state = opts.seed >>> 0 || 1;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  for (let i = clips.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [clips[i], clips[j]] = [clips[j] as Clip, clips[i] as Clip];
  }
  if (opts.limit) clips = clips.slice(0, opts.limit);
  const bySpeaker = new Map<string, Clip[]>();
  for (const c of clips) bySpeaker.set(c.speaker, [...(bySpeaker.get(c.speaker) ?? []), c]);
  const utterances: Utterance[] = [];
  for (const [speaker, list] of bySpeaker) {
    for (let i = 0; i < list.length; i += 3) {
      const parts = list.slice(i, i + 3);
      utterances.push({ speaker, ref: parts.map((c) => c.value), audio: chain(parts.map(clipAudio), random) });
    }
  }
  return { clips, utterances };
}

function chain(parts: Float32Array[], random: () => number): Float32Array {
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

/** One edit of the alignment: a substitution (ref→hyp), a deletion (hyp null) or an insertion (ref null). */
export type Edit = { ref: number | null; hyp: number | null };

/** The minimum edits (substitutions, deletions, insertions) from the reference to the recognised values. */
export function align(ref: number[], hyp: number[]): Edit[] {
  const d = Array.from({ length: ref.length + 1 }, (_, i) => hyp.map((_, j) => (i === 0 ? j + 1 : 0)));
  const at = (i: number, j: number) => (j === 0 ? i : i === 0 ? j : ((d[i] as number[])[j - 1] as number));
  for (let i = 1; i <= ref.length; i++)
    for (let j = 1; j <= hyp.length; j++)
      (d[i] as number[])[j - 1] = Math.min(
        at(i - 1, j) + 1,
        at(i, j - 1) + 1,
        at(i - 1, j - 1) + (ref[i - 1] === hyp[j - 1] ? 0 : 1),
      );
  const edits: Edit[] = [];
  let i = ref.length;
  let j = hyp.length;
  while (i > 0 || j > 0) {
    const r = ref[i - 1] as number;
    const h = hyp[j - 1] as number;
    if (i > 0 && j > 0 && at(i, j) === at(i - 1, j - 1) + (r === h ? 0 : 1)) {
      if (r !== h) edits.push({ ref: r, hyp: h });
      i--;
      j--;
    } else if (i > 0 && at(i, j) === at(i - 1, j) + 1) {
      edits.push({ ref: r, hyp: null });
      i--;
    } else {
      edits.push({ ref: null, hyp: h });
      j--;
    }
  }
  return edits;
}

/** Tallies edits by kind: "3→8", "del 4", "ins 1". */
export function tallyEdits(edits: Edit[], into: Map<string, number>): void {
  for (const e of edits) {
    const key = e.ref === null ? `ins ${e.hyp}` : e.hyp === null ? `del ${e.ref}` : `${e.ref}→${e.hyp}`;
    into.set(key, (into.get(key) ?? 0) + 1);
  }
}
