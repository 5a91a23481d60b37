import type { TranscriptSegment, TranscriptWord } from "#app/services/speech/engine.ts";

/** One JSON line of whisper-worker.ts (times in seconds). */
export type WorkerLine =
  | { type: "loaded"; multilingual: boolean }
  | { type: "segment"; text: string; start: number; end: number }
  | { type: "done" }
  | { type: "error"; code: string; message: string };

const round = (t: number) => Math.round(t * 1000) / 1000;

/** A pause this long between words starts a new segment, as does a sentence end. */
const PAUSE_SEC = 0.8;
const MAX_SEGMENT_SEC = 15;

/**
 * The worker asks whisper.cpp for one segment per word (maxLen 1 + splitOnWord, token
 * timestamps); this regroups them into sentence-like segments that keep the word timings.
 * Times are clamped to the audio: whisper.cpp pads every window to 30 s and can place a
 * timestamp in the padding.
 */
export function groupWords(lines: readonly WorkerLine[], durationSec: number): TranscriptSegment[] {
  const limit = Math.floor(durationSec * 1000) / 1000;
  const clamp = (t: number) => Math.min(Math.max(0, round(t)), limit);
  const words: TranscriptWord[] = [];
  let last = 0;
  for (const line of lines) {
    if (line.type !== "segment") continue;
    const word = line.text.trim();
    if (!word) continue;
    const start = Math.max(clamp(line.start), last);
    const end = Math.max(clamp(line.end), start);
    last = start;
    words.push({ start, end, word });
  }
  const segments: TranscriptSegment[] = [];
  let current: TranscriptWord[] = [];
  const flush = () => {
    if (current.length === 0) return;
    const first = current[0] as TranscriptWord;
    const final = current.at(-1) as TranscriptWord;
    segments.push({ start: first.start, end: final.end, text: current.map((w) => w.word).join(" "), words: current });
    current = [];
  };
  for (const word of words) {
    const previous = current.at(-1);
    const first = current[0];
    if (
      previous &&
      first &&
      (word.start - previous.end > PAUSE_SEC || /[.?!]$/.test(previous.word) || word.end - first.start > MAX_SEGMENT_SEC)
    )
      flush();
    current.push(word);
  }
  flush();
  return segments;
}
