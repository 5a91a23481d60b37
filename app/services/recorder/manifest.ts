import { plainAudioType } from "#app/services/visits/audio-format.ts";
import type { SessionRecord } from "./types.ts";

/** The finish manifest (POST /api/visits/:id/audio/finish; docs/api.md). */
export interface FinishManifest {
  chunks: number;
  bytes: number;
  duration_ms: number;
  mime_type?: string;
  /** Recorded stretches, in ms of audio (pauses excluded): where the recording was paused or restarted. */
  segments: { start_ms: number; end_ms: number }[];
}

/**
 * Issue 5 "Stop sends a manifest (segments, chunk count, bytes, duration)". A stretch ends at each
 * pause (or lost microphone) and at each restart of the recorder after a reload; stretches tile
 * [0, duration] of the recorded audio.
 */
export function manifestOf(session: SessionRecord): FinishManifest {
  const duration = Math.round(session.durationMs);
  const breaks = new Set<number>();
  for (const at of session.breaksMs ?? []) breaks.add(Math.round(at));
  for (const segment of session.segments) if (segment.startMs !== undefined) breaks.add(Math.round(segment.startMs));
  const cuts = [...breaks].filter((at) => at > 0 && at < duration).sort((a, b) => a - b);
  const bounds = [0, ...cuts, duration];
  const segments: FinishManifest["segments"] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const start = bounds[i] as number;
    const end = bounds[i + 1] as number;
    if (end > start) segments.push({ start_ms: start, end_ms: end });
  }
  // The server refuses a type that is not one plain audio type (issue 10: the served type never
  // comes from the client). A browser reporting anything else (e.g. `video/webm`) sends none, so
  // the recording still finishes and the server detects the format from the bytes.
  const mimeType = plainAudioType(session.segments[0]?.mimeType);
  return {
    chunks: session.nextSeq,
    bytes: session.bytes,
    duration_ms: duration,
    ...(mimeType ? { mime_type: mimeType } : {}),
    segments,
  };
}
