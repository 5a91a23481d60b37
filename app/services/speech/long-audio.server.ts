import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  SpeechEngine,
  TranscribeOptions,
  TranscriptResult,
  TranscriptSegment,
  WindowPolicy,
} from "#app/services/speech/engine.ts";
import { abortError } from "#app/services/speech/errors.ts";
import { energyEnvelope, extractWavRange, quietestPoint, readWavInfo } from "#app/services/speech/wav.server.ts";
import type { CachedWindow, WindowCache } from "#app/services/speech/window-cache.ts";
import { type AudioWindow, absoluteTrustedSegments, makeMonotonic, planWindows } from "#app/services/speech/windows.ts";

export interface LongTranscribeOptions extends TranscribeOptions {
  /** Defaults to the engine's own policy. */
  window?: WindowPolicy;
  /** Fraction of windows done (0–1), after each window: drives the visit page's progress bar. */
  onProgress?: (done: number) => void;
  /** Windows already decoded (while recording) are taken from here, and new ones stored. */
  cache?: WindowCache;
  /**
   * Issue 26: decode this many runs of consecutive windows at once (one decoder per core for an
   * upload). Each run after the first starts by decoding the window before it, unkept, so the
   * engine's carried state (pocketsphinx's cepstral mean) has settled as it would have in order.
   * The engine's own limiter still bounds how many decoders run. Default 1: in order.
   */
  lanes?: number;
}

/**
 * Transcribes a normalised WAV of any length: window by window (one window's WAV on disk at a
 * time), cutting at pauses, shifting each window's segments to absolute time and keeping from
 * each overlap only the side of the cut its window is trusted for (windows.ts). Segments reach
 * onSegment once they can no longer change.
 */
export async function transcribeLongAudio(
  engine: SpeechEngine,
  wavPath: string,
  options: LongTranscribeOptions,
): Promise<TranscriptResult> {
  const { windows } = await planAudio(engine, wavPath, options.window);
  if (windows.length === 1) {
    const result = await engine.transcribe(wavPath, {
      language: options.language,
      signal: options.signal,
      onSegment: options.onSegment,
      carry: options.carry,
      vocabulary: options.vocabulary,
    });
    options.onProgress?.(1);
    return result;
  }
  const lanes = Math.max(1, Math.min(options.lanes ?? 1, Math.floor(windows.length / 2)));
  if (lanes > 1 && !(await startsInCache(engine, wavPath, windows, options))) {
    return transcribeInLanes(engine, wavPath, windows, lanes, options);
  }
  const merged: TranscriptSegment[] = [];
  let model: string | undefined;
  let engineId = engine.id;
  let language = options.language;
  await eachWindow(engine, wavPath, windows, options, (window, result) => {
    model = result.model;
    engineId = result.engine;
    language = result.language;
    const kept = makeMonotonic(absoluteTrustedSegments(window, result.segments), merged.at(-1)?.end ?? 0);
    for (const segment of kept) {
      merged.push(segment);
      options.onSegment?.(segment);
    }
    options.onProgress?.((window.index + 1) / windows.length);
  });
  return { text: merged.map((s) => s.text).join(" "), segments: merged, engine: engineId, model, language };
}

/**
 * Whether the first window was decoded while recording: then the rest were too, in order, with
 * the carried state, and decoding in lanes would miss their cache keys.
 */
async function startsInCache(
  engine: SpeechEngine,
  wavPath: string,
  windows: readonly AudioWindow[],
  options: LongTranscribeOptions,
): Promise<boolean> {
  const first = windows[0];
  if (!options.cache || !first) return false;
  const scratch = await mkdtemp(join(tmpdir(), "murmur-probe-"));
  try {
    const path = join(scratch, "window-0.wav");
    await extractWavRange(wavPath, await readWavInfo(wavPath), first.start, first.end, path);
    const key = await windowKey(path, engine.id, options.language, { ...(options.carry ?? {}) }, options.vocabulary?.version);
    return (await options.cache.get(key)) !== null;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** transcribeLongAudio's parallel path: `lanes` runs of consecutive windows, merged in order. */
async function transcribeInLanes(
  engine: SpeechEngine,
  wavPath: string,
  windows: readonly AudioWindow[],
  lanes: number,
  options: LongTranscribeOptions,
): Promise<TranscriptResult> {
  const results: (CachedWindow | undefined)[] = windows.map(() => undefined);
  let done = 0;
  const size = Math.ceil(windows.length / lanes);
  const runs = Array.from({ length: lanes }, (_, lane) => windows.slice(lane * size, (lane + 1) * size)).filter(
    (r) => r.length > 0,
  );
  await Promise.all(
    runs.map(async (run, lane) => {
      const carry = { ...(options.carry ?? {}) };
      const warmUp = lane > 0 ? windows[lane * size - 1] : undefined;
      const laneWindows = warmUp ? [warmUp, ...run] : run;
      await eachWindow(engine, wavPath, laneWindows, { ...options, carry }, (window, result) => {
        if (window === warmUp) return;
        results[window.index] = result;
        done += 1;
        options.onProgress?.(done / windows.length);
      });
    }),
  );
  const merged: TranscriptSegment[] = [];
  let last: CachedWindow | undefined;
  for (const window of windows) {
    const result = results[window.index];
    if (!result) throw new Error(`window ${window.index} was not decoded`);
    last = result;
    for (const segment of makeMonotonic(absoluteTrustedSegments(window, result.segments), merged.at(-1)?.end ?? 0)) {
      merged.push(segment);
      options.onSegment?.(segment);
    }
  }
  return {
    text: merged.map((s) => s.text).join(" "),
    segments: merged,
    engine: last?.engine ?? engine.id,
    model: last?.model,
    language: last?.language ?? options.language,
  };
}

/**
 * While a visit is still recording (issue 5 "Transcribe while recording"): decodes, into the
 * cache, each window of the audio so far that the finished recording will cut the same way, so
 * after Stop only the last windows remain. A window is settled once its cut at a pause can no
 * longer move: the audio reaches past the end of the range that cut was searched in (settlesAt,
 * from the cut's nominal place, not the conservative "chosen cut + twice the slack" used before:
 * about 5 s less audio left after Stop on average), with a second to spare for the decoder's last
 * samples. Returns how many windows were decoded now.
 */
export async function transcribeSettledWindows(
  engine: SpeechEngine,
  wavPath: string,
  options: TranscribeOptions & { cache: WindowCache; window?: WindowPolicy },
): Promise<{ decoded: number; settled: number }> {
  const { windows, durationSec } = await planAudio(engine, wavPath, options.window);
  // The last window always grows with the recording, so it is never settled (it has no settlesAt).
  const settled = windows.filter((w) => w.settlesAt !== undefined && w.settlesAt + DECODER_TAIL_SEC <= durationSec);
  let decoded = 0;
  await eachWindow(engine, wavPath, settled, { ...options, onDecoded: () => (decoded += 1) }, () => {});
  return { decoded, settled: settled.length };
}

/** Audio past a window's end that the decoder of a growing recording must see before it is final. */
const DECODER_TAIL_SEC = 1;

async function planAudio(engine: SpeechEngine, wavPath: string, window?: WindowPolicy) {
  const info = await readWavInfo(wavPath);
  const policy = window ?? engine.window;
  let windows = planWindows(info.durationSec, policy);
  if (windows.length > 1) {
    // Cut at pauses: a decoder restarted mid-word or mid-phrase mishears the words around the cut.
    const envelope = await energyEnvelope(wavPath, info);
    windows = planWindows(info.durationSec, policy, (target, min, max) => quietestPoint(envelope, target, min, max));
  }
  return { info, windows, durationSec: info.durationSec, policy };
}

/** Decodes (or takes from the cache) each window in order, carrying the engine's state from one to the next. */
async function eachWindow(
  engine: SpeechEngine,
  wavPath: string,
  windows: readonly AudioWindow[],
  options: TranscribeOptions & { cache?: WindowCache; onDecoded?: () => void },
  onWindow: (window: AudioWindow, result: CachedWindow) => void,
): Promise<void> {
  const info = await readWavInfo(wavPath);
  const scratch = await mkdtemp(join(tmpdir(), "murmur-windows-"));
  const carry = options.carry ?? {};
  try {
    for (const window of windows) {
      if (options.signal?.aborted) throw abortError(options.signal);
      const path = join(scratch, `window-${window.index}.wav`);
      await extractWavRange(wavPath, info, window.start, window.end, path);
      const key = options.cache ? await windowKey(path, engine.id, options.language, carry, options.vocabulary?.version) : null;
      let result = key ? await options.cache?.get(key) : null;
      if (result) {
        replaceCarry(carry, result.carryOut);
      } else {
        const fresh = await engine.transcribe(path, {
          language: options.language,
          signal: options.signal,
          carry,
          vocabulary: options.vocabulary,
        });
        options.onDecoded?.();
        result = {
          segments: fresh.segments,
          engine: fresh.engine,
          model: fresh.model,
          language: fresh.language,
          carryOut: { ...carry },
        };
        if (key) await options.cache?.put(key, result);
      }
      await rm(path, { force: true });
      onWindow(window, result);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function windowKey(
  path: string,
  engineId: string,
  language: string,
  carry: Record<string, unknown>,
  vocabulary: string | undefined,
): Promise<string> {
  const hash = createHash("sha256");
  hash.update(await readFile(path));
  // A window decoded before the organisation's vocabulary changed is decoded again with the new one.
  hash.update(`\0${engineId}\0${language}\0${JSON.stringify(carry)}${vocabulary ? `\0${vocabulary}` : ""}`);
  return hash.digest("hex");
}

function replaceCarry(carry: Record<string, unknown>, next: Record<string, unknown>): void {
  for (const key of Object.keys(carry)) delete carry[key];
  Object.assign(carry, next);
}
