import type { MediaStreamLike } from "./media-types.ts";

/** The parts of Web Audio used to measure the microphone's level (AudioContext, AnalyserNode). */
export interface AnalyserLike {
  fftSize: number;
  getFloatTimeDomainData(array: Float32Array<ArrayBuffer>): void;
}
export interface AudioContextLike {
  createMediaStreamSource(stream: MediaStreamLike): { connect(node: AnalyserLike): unknown; disconnect(): void };
  createAnalyser(): AnalyserLike;
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** Root mean square of samples in [-1, 1]: 0 silence … 1 full scale. */
export function rms(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.min(1, Math.sqrt(sum / samples.length));
}

/**
 * Connects the microphone stream to an analyser and returns a reader of its current RMS level. The
 * analyser is not connected to the speakers, so nothing is played back. Null when Web Audio is missing
 * or refuses: the meter is a help, never a reason not to record.
 */
export function openLevelMeter(
  createAudioContext: (() => AudioContextLike) | null,
  stream: MediaStreamLike,
): { read(): number; close(): void } | null {
  if (!createAudioContext) return null;
  try {
    const context = createAudioContext();
    const source = context.createMediaStreamSource(stream);
    const analyser = context.createAnalyser();
    analyser.fftSize = 2048;
    source.connect(analyser);
    // Created from the Start click, so resuming is allowed by autoplay rules.
    void context.resume().catch(() => undefined);
    const buffer = new Float32Array(analyser.fftSize);
    return {
      read() {
        analyser.getFloatTimeDomainData(buffer);
        return rms(buffer);
      },
      close() {
        source.disconnect();
        void context.close().catch(() => undefined);
      },
    };
  } catch {
    return null;
  }
}
