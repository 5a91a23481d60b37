/**
 * Recorder constants (issue 5 "Recording"; SPEC §4 Tab visibility, §9). The spec fixes only the key
 * families and the reconnect check; the other numbers are our choices, explained where they are set.
 */
import type { SessionStatus } from "./types.ts";

const SECOND_MS = 1000;

/** Issue 5: a MediaRecorder timeslice of at most 5 s. 3 s bounds what a crash can lose while keeping requests few. */
export const RECORDER_TIMESLICE_MS = 3 * SECOND_MS;
/** Opus in WebM where the browser has it (Chromium, Firefox); Safari falls back to its default (MP4/AAC). */
export const PREFERRED_MIME_TYPE = "audio/webm;codecs=opus";
/** The input level is sampled ~10 times a second. */
export const LEVEL_SAMPLE_INTERVAL_MS = 100;

/** Upload back-off: 1 s doubling to a 30 s cap, each delay jittered ±25 % so tabs do not retry in step. */
export const BACKOFF_BASE_MS = SECOND_MS;
export const BACKOFF_MAX_MS = 30 * SECOND_MS;
export const BACKOFF_JITTER = 0.25;
/** At most two chunk uploads in flight: enough to catch up after an outage without flooding the server. */
export const UPLOAD_PARALLELISM = 2;
/** A 422 chunk_checksum_mismatch is resent at once this many times before it waits like any failure. */
export const CHECKSUM_RESENDS_IMMEDIATE = 2;
/** Rounds of "409 chunks_missing → resend → finish" before the visit is reported as failed. */
export const FINISH_MISSING_ROUNDS = 3;

/** SPEC §7 reconnect check and SPEC §4 reconnect event: shared with the auth client, which fires the event. */
export { PING_PATH, RECONNECT_EVENT } from "#app/services/auth-client/constants.ts";

/**
 * SPEC §4 names the browser's recording key families. Every session record lives under one of them
 * (family prefix + visit id): a live recording is audio "pending save" as much as an interrupted one,
 * so both share pending_save_ and the record's status tells them apart. These records are kept in
 * IndexedDB only: the auth client's one-off migration cleanup deletes these names from local and
 * session storage, and sign-out clears only local/session storage and cookies.
 */
export const SESSION_KEY_FAMILY: Readonly<Record<SessionStatus, string>> = {
  recording: "pending_save_",
  pending_save: "pending_save_",
  finalized: "finalized_recording_",
  offline_transcription: "offline_transcription_",
  failed_save: "failed_save_",
};

/** The IndexedDB database of this feature; its name matches none of the sign-out clean-up patterns (sb-, lswt-, supabase). */
export const RECORDER_DB_NAME = "murmur-recorder";
export const RECORDER_DB_VERSION = 1;
/** The one AES-GCM key of this browser profile, under this name in the "keys" store. */
export const CHUNK_KEY_NAME = "chunk-key-v1";
/** Web Locks name prefix: one tab at a time owns a visit's local audio (records or uploads it). */
export const VISIT_LOCK_PREFIX = "murmur-recorder:visit:";
