import { z } from "zod";

// Issue 5 "Pipeline": pg-boss queues. Jobs carry the organisation and ids only; the handler
// reloads everything scoped to that organisation (CONVENTIONS "Services and data").

export const TRANSCRIBE_VISIT_QUEUE = "transcribe-visit";
/** Jobs that used up their retries land here; its worker marks the visit failed. */
export const TRANSCRIBE_VISIT_DEAD_QUEUE = "transcribe-visit-dead";

export const TranscribeVisitPayloadSchema = z.strictObject({
  orgId: z.uuid(),
  visitId: z.uuid(),
});
export type TranscribeVisitPayload = z.infer<typeof TranscribeVisitPayloadSchema>;

/**
 * `stately`: per singleton key (the visit id) at most one job waiting and one running, so a
 * duplicate enqueue while one waits is dropped, and new audio arriving while a job runs still gets
 * its own run. Heartbeats let a crashed worker's job be retried within a minute instead of after
 * the hour its expiry allows for long audio.
 */
export const TRANSCRIBE_VISIT_QUEUE_OPTIONS = {
  policy: "stately",
  retryLimit: 4,
  retryDelay: 15,
  retryBackoff: true,
  retryDelayMax: 600,
  expireInSeconds: 60 * 60,
  heartbeatSeconds: 30,
  deadLetter: TRANSCRIBE_VISIT_DEAD_QUEUE,
} as const;

/**
 * How often a dead-letter worker polls when the caller does not say. A job lands there only after
 * its retries (minutes of back-off) are used up, so seconds more before the visit or note reads
 * "failed" change nothing; polling them as often as the live queues cost the web process most:
 * on an embedded PGlite every poll runs on the request thread (bench/web's SSR p95, issue 11).
 */
export const DEAD_LETTER_POLLING_SECONDS = 15;

export const TRANSCRIBE_VISIT_DEAD_QUEUE_OPTIONS = {
  policy: "standard",
  retryLimit: 5,
  retryDelay: 30,
  retryBackoff: true,
} as const;

/**
 * Issue 5 "Transcribe while recording": decodes the settled windows of a visit that is still
 * recording. Best effort: no retries (the next chunk queues another run, and the job after Stop
 * decodes whatever is missing). `stately` with a delayed start batches the chunks of ~10 s into
 * one run, and never runs two at once for one visit.
 */
export const TRANSCRIBE_LIVE_QUEUE = "transcribe-live";
export const TRANSCRIBE_LIVE_DELAY_SECONDS = 10;
export const TRANSCRIBE_LIVE_QUEUE_OPTIONS = {
  policy: "stately",
  retryLimit: 0,
  expireInSeconds: 15 * 60,
  heartbeatSeconds: 30,
} as const;
