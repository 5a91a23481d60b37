import type { TranscriptSegment } from "#app/services/speech/engine.ts";

/**
 * What an engine made of one window, kept so the same window is never decoded twice: windows
 * transcribed while the visit is still recording are reused after Stop (issue 5 "Transcribe while
 * recording"). Segments are relative to the window, as the engine returned them.
 */
export interface CachedWindow {
  segments: TranscriptSegment[];
  engine: string;
  model?: string;
  language: string;
  /** The engine's carry state after this window (the next window's input state). */
  carryOut: Record<string, unknown>;
}

/**
 * Keyed by the window's exact PCM, the engine, the language and the carry state going in: a hit
 * is then exactly what decoding again would give, so a window cut differently after Stop (the
 * recording grew, a cut moved to another pause) is simply a miss, never a wrong transcript.
 */
export interface WindowCache {
  get(key: string): Promise<CachedWindow | null>;
  put(key: string, value: CachedWindow): Promise<void>;
}

/** For benches and tests; the job's cache lives in the database (transcription-window-cache.server.ts). */
export function memoryWindowCache(): WindowCache & { size(): number } {
  const entries = new Map<string, CachedWindow>();
  return {
    get: async (key) => structuredClone(entries.get(key) ?? null),
    put: async (key, value) => {
      entries.set(key, structuredClone(value));
    },
    size: () => entries.size,
  };
}
