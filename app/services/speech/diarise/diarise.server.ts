import { open } from "node:fs/promises";
import { readWavInfo } from "#app/services/speech/wav.server.ts";
import { assignRoles, DEFAULT_TUNING, type DiariseTuning, type SegmentEvidence } from "./cluster.ts";
import { CEPSTRA, mfcc, SAMPLE_RATE } from "./mfcc.ts";
import roleModelJson from "./role-model.json" with { type: "json" };
import { type RoleModel, textRoleScore } from "./roles.ts";
import type { SpeakerRole } from "./speaker.ts";

const roleModel: RoleModel = roleModelJson;

/** Fewer loud frames than this (0.3 s) say too little about a voice. */
const MIN_VOICED_FRAMES = 30;

/**
 * Mean and standard deviation of c1…c12 over the segment's louder frames (above its 30th
 * percentile of energy: the pauses inside a segment are the room, not the speaker).
 */
export function voiceVector(samples: Int16Array): Float64Array | null {
  const frames = mfcc(samples);
  if (frames.count < MIN_VOICED_FRAMES) return null;
  const sorted = Float32Array.from(frames.energy).sort();
  const floor = sorted[Math.floor(sorted.length * 0.3)] ?? Number.NEGATIVE_INFINITY;
  const sum = new Float64Array(CEPSTRA);
  const squares = new Float64Array(CEPSTRA);
  let n = 0;
  for (let f = 0; f < frames.count; f++) {
    if ((frames.energy[f] as number) < floor) continue;
    n++;
    for (let c = 0; c < CEPSTRA; c++) {
      const x = frames.cepstra[f * CEPSTRA + c] as number;
      sum[c] = (sum[c] as number) + x;
      squares[c] = (squares[c] as number) + x * x;
    }
  }
  if (n < MIN_VOICED_FRAMES) return null;
  const vector = new Float64Array(CEPSTRA * 2);
  for (let c = 0; c < CEPSTRA; c++) {
    const mean = (sum[c] as number) / n;
    vector[c] = mean;
    vector[CEPSTRA + c] = Math.sqrt(Math.max(0, (squares[c] as number) / n - mean * mean));
  }
  return vector;
}

export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/**
 * Who said each segment of a transcript of a 16 kHz mono WAV (normaliseAudio's output), for any
 * engine: voices from the recording, roles from the words. Reads only the segments' audio, one
 * at a time, so memory does not grow with the recording.
 */
export async function diariseSegments(
  wavPath: string,
  segments: readonly TimedText[],
  tuning: DiariseTuning = DEFAULT_TUNING,
): Promise<(SpeakerRole | null)[]> {
  const evidence = await segmentEvidence(wavPath, segments);
  return evidence ? assignRoles(evidence, tuning) : segments.map(() => null);
}

/** Each segment's voice vector and words' log odds; null when the WAV is not 16 kHz mono 16-bit. */
export async function segmentEvidence(wavPath: string, segments: readonly TimedText[]): Promise<SegmentEvidence[] | null> {
  if (segments.length === 0) return [];
  const info = await readWavInfo(wavPath);
  if (info.sampleRate !== SAMPLE_RATE || info.channels !== 1 || info.bitsPerSample !== 16) return null;
  const handle = await open(wavPath, "r");
  const evidence: SegmentEvidence[] = [];
  try {
    for (const segment of segments) {
      const from = Math.max(0, Math.floor(segment.start * SAMPLE_RATE)) * 2;
      const to = Math.min(info.dataBytes, Math.ceil(segment.end * SAMPLE_RATE) * 2);
      let voice: Float64Array | null = null;
      if (to - from >= 2) {
        const bytes = Buffer.alloc(to - from);
        await handle.read(bytes, 0, bytes.length, info.dataOffset + from);
        voice = voiceVector(new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2));
      }
      evidence.push({
        voice,
        duration: Math.max(0, segment.end - segment.start),
        text: textRoleScore(roleModel, segment.text),
        start: segment.start,
        end: segment.end,
      });
    }
  } finally {
    await handle.close();
  }
  return evidence;
}
