import { mkdtemp, rm } from "node:fs/promises";
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
import { absoluteTrustedSegments, makeMonotonic, planWindows } from "#app/services/speech/windows.ts";

export interface LongTranscribeOptions extends TranscribeOptions {
  /** Defaults to the engine's own policy. */
  window?: WindowPolicy;
  /** Fraction of windows done (0–1), after each window: drives the visit page's progress bar. */
  onProgress?: (done: number) => void;
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
  const info = await readWavInfo(wavPath);
  const policy = options.window ?? engine.window;
  let windows = planWindows(info.durationSec, policy);
  if (windows.length > 1) {
    // Cut at pauses: a decoder restarted mid-word or mid-phrase mishears the words around the cut.
    const envelope = await energyEnvelope(wavPath, info);
    windows = planWindows(info.durationSec, policy, (target, min, max) => quietestPoint(envelope, target, min, max));
  }
  if (windows.length === 1) {
    const result = await engine.transcribe(wavPath, {
      language: options.language,
      signal: options.signal,
      onSegment: options.onSegment,
      carry: options.carry,
    });
    options.onProgress?.(1);
    return result;
  }
  const scratch = await mkdtemp(join(tmpdir(), "murmur-windows-"));
  const merged: TranscriptSegment[] = [];
  const carry = options.carry ?? {};
  let model: string | undefined;
  let engineId = engine.id;
  let language = options.language;
  try {
    for (const window of windows) {
      if (options.signal?.aborted) throw abortError(options.signal);
      const path = join(scratch, `window-${window.index}.wav`);
      await extractWavRange(wavPath, info, window.start, window.end, path);
      const result = await engine.transcribe(path, { language: options.language, signal: options.signal, carry });
      await rm(path, { force: true });
      model = result.model;
      engineId = result.engine;
      language = result.language;
      const kept = makeMonotonic(absoluteTrustedSegments(window, result.segments), merged.at(-1)?.end ?? 0);
      for (const segment of kept) {
        merged.push(segment);
        options.onSegment?.(segment);
      }
      options.onProgress?.((window.index + 1) / windows.length);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { text: merged.map((s) => s.text).join(" "), segments: merged, engine: engineId, model, language };
}
