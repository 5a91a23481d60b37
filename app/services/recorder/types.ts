/**
 * The recorder's local records (issue 5). Session statuses follow the SPEC §4 key families:
 * - recording: a page is recording this visit now (it holds the visit's lock);
 * - pending_save: a recording was interrupted (the page went away before Stop) — its audio is uploaded,
 *   and the visit can be resumed or stopped later;
 * - finalized: Stop was pressed; the manifest is sent once every chunk is acknowledged;
 * - offline_transcription: as finalized, but Stop (or the manifest) happened offline;
 * - failed_save: the server refused the audio for good (visit closed, trial ended, conflict…); the local
 *   copy is kept and the reason shown.
 */
export type SessionStatus = "recording" | "pending_save" | "finalized" | "offline_transcription" | "failed_save";

export interface FailureInfo {
  /** The server's stable code (visit_closed, trial_ended, chunk_conflict, chunks_missing…) or a local one. */
  code: string;
  seq?: number;
  missing?: number[];
  at: number;
}

/** Where each MediaRecorder run starts: a reload or a lost microphone starts a new container stream. */
export interface SegmentRecord {
  firstSeq: number;
  mimeType: string;
  /** Recorded time (ms, pauses excluded) when this MediaRecorder run started. */
  startMs?: number;
}

export interface SessionRecord {
  /** SPEC §4 family prefix + visit id. */
  key: string;
  visitId: string;
  orgId: string;
  userId: string | null;
  status: SessionStatus;
  nextSeq: number;
  startedAt: number;
  updatedAt: number;
  /** Recorded time so far, pauses excluded. */
  durationMs: number;
  /** Plaintext bytes of every chunk produced (the manifest's byte count). */
  bytes: number;
  segments: SegmentRecord[];
  /** Recorded time (ms) of each pause or lost microphone: the manifest's stretch boundaries. */
  breaksMs?: number[];
  /** When Stop was pressed (null while the recording can still go on): decides finalized vs pending_save on a retry. */
  finalizedAt: number | null;
  failure: FailureInfo | null;
}

export type ChunkState = "pending" | "conflict";

export interface ChunkRecord {
  /** `${visitId}:${seq padded}` so a prefix scan returns a visit's chunks in seq order. */
  key: string;
  visitId: string;
  orgId: string;
  seq: number;
  /** AES-GCM ciphertext (with tag) of the audio bytes. */
  bytes: ArrayBuffer;
  iv: Uint8Array;
  /** Hex SHA-256 of the plaintext: the x-chunk-sha256 header. */
  sha256: string;
  size: number;
  mimeType: string;
  createdAt: number;
  state: ChunkState;
}

/** What the queue needs to know of a stored chunk without decrypting it. */
export interface ChunkMeta {
  visitId: string;
  orgId: string;
  seq: number;
  size: number;
  sha256: string;
  state: ChunkState;
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}
