import type { TranscriptSegment, TranscriptWord, WindowPolicy } from "#app/services/speech/engine.ts";

export interface AudioWindow {
  index: number;
  /** What the engine hears: the trusted span plus up to overlapSec / 2 of context on each side. */
  start: number;
  end: number;
  /** The span this window's words are kept for; consecutive windows' spans tile the audio. */
  from: number;
  to: number;
  /**
   * How long the recording must be for this window (its cut at `to`, its audio up to `end`) to be
   * what the finished recording gives, whatever follows: the cut's search range then lies wholly
   * inside the audio. Absent on the last window, which always grows with the recording.
   */
  settlesAt?: number;
}

/** How far a cut may move from its nominal place to find a pause: speakers pause every few seconds. */
export const MAX_CUT_SLACK_SEC = 5;

/** Picks where to cut near `target`, within [min, max] (e.g. the quietest moment: wav.server.ts). */
export type CutChooser = (target: number, min: number, max: number) => number;

/**
 * Cuts [0, duration) into windows of at most about `windowSec`. Each cut is placed near the
 * middle of where two nominal windows overlap (at a pause when `chooseCut` finds one), and each
 * window reaches overlapSec / 2 past its cuts: a word cut at a window's edge lies in that margin,
 * and the decoder's running normalisation settles there before the words the window is kept for.
 */
export function planWindows(durationSec: number, policy: WindowPolicy, chooseCut?: CutChooser): AudioWindow[] {
  const { windowSec, overlapSec } = policy;
  if (!(windowSec > 0) || !(overlapSec >= 0) || overlapSec >= windowSec) {
    throw new RangeError(`invalid window policy ${windowSec}/${overlapSec}`);
  }
  const duration = Math.max(0, durationSec);
  if (duration <= windowSec) return [{ index: 0, start: 0, end: round(duration), from: 0, to: round(duration) }];
  const stride = windowSec - overlapSec;
  const margin = overlapSec / 2;
  // Room to move a cut to a pause; windows stay under windowSec + 2 × slack.
  const slack = Math.min(stride / 4, MAX_CUT_SLACK_SEC);
  const cuts: number[] = [];
  const settles: number[] = [];
  for (let target = stride + margin; target < duration - margin; target += stride) {
    const previous = cuts.at(-1) ?? 0;
    const min = Math.max(previous + stride / 2, target - slack);
    const max = Math.min(duration - margin, target + slack);
    const cut = chooseCut && max > min ? chooseCut(target, min, max) : target;
    cuts.push(round(Math.min(max, Math.max(min, cut))));
    settles.push(round(target + slack + margin));
  }
  const bounds = [0, ...cuts, round(duration)];
  const windows: AudioWindow[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i] as number;
    const to = bounds[i + 1] as number;
    const window: AudioWindow = {
      index: i,
      start: round(Math.max(0, from - margin)),
      end: round(Math.min(duration, to + margin)),
      from,
      to,
    };
    if (i < cuts.length) window.settlesAt = settles[i] as number;
    windows.push(window);
  }
  return windows;
}

export interface WindowTranscript {
  window: AudioWindow;
  /** Times relative to the window's start, as the engine returned them. */
  segments: readonly TranscriptSegment[];
}

/** Shifts one window's segments to absolute time and keeps only what falls in its trusted span. */
export function absoluteTrustedSegments(window: AudioWindow, segments: readonly TranscriptSegment[]): TranscriptSegment[] {
  const inside = (start: number, end: number) => {
    const middle = (start + end) / 2;
    return middle >= window.from && middle < window.to;
  };
  const kept: TranscriptSegment[] = [];
  for (const segment of segments) {
    const shifted = shiftSegment(segment, window.start);
    if (shifted.words && shifted.words.length > 0) {
      const words = shifted.words.filter((w) => inside(w.start, w.end));
      const first = words[0];
      const last = words.at(-1);
      if (!first || !last) continue;
      kept.push({ start: first.start, end: last.end, text: words.map((w) => w.word).join(" "), words });
    } else if (inside(shifted.start, shifted.end) && shifted.text.trim()) {
      kept.push(shifted);
    }
  }
  return kept;
}

/** Joins the windows' segments into one absolute, time-ordered, non-overlapping list. */
export function mergeWindowSegments(transcripts: readonly WindowTranscript[]): TranscriptSegment[] {
  return makeMonotonic(transcripts.flatMap((t) => absoluteTrustedSegments(t.window, t.segments)));
}

/**
 * Sorts by start and removes overlaps between neighbours so timestamps never run backwards;
 * `after` is where the previous output ended (appending window by window).
 */
export function makeMonotonic(segments: readonly TranscriptSegment[], after = 0): TranscriptSegment[] {
  const sorted = [...segments].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: TranscriptSegment[] = [];
  let cursor = after;
  for (const segment of sorted) {
    const start = round(Math.max(segment.start, cursor));
    const end = round(Math.max(segment.end, start));
    out.push({ ...segment, start, end });
    cursor = end;
  }
  return out;
}

function shiftSegment(segment: TranscriptSegment, offset: number): TranscriptSegment {
  const shifted: TranscriptSegment = {
    start: round(segment.start + offset),
    end: round(segment.end + offset),
    text: segment.text,
  };
  if (segment.words) shifted.words = segment.words.map((w) => shiftWord(w, offset));
  return shifted;
}

function shiftWord(word: TranscriptWord, offset: number): TranscriptWord {
  return { ...word, start: round(word.start + offset), end: round(word.end + offset) };
}

export function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
