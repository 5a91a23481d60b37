import { z } from "zod";

// Issue 6 "Generation": a job per note (a visit + a template). Like transcribe-visit, the payload
// carries the organisation and the note id only; the handler reloads everything scoped to them.

export const GENERATE_NOTE_QUEUE = "generate-note";
/** Jobs that used up their retries land here; its worker marks the note failed. */
export const GENERATE_NOTE_DEAD_QUEUE = "generate-note-dead";

export const GenerateNotePayloadSchema = z.strictObject({
  orgId: z.uuid(),
  noteId: z.uuid(),
});
export type GenerateNotePayload = z.infer<typeof GenerateNotePayloadSchema>;

/**
 * `stately` per note: at most one job waiting and one running, so a double click queues once and
 * a section regenerated while the whole note runs still gets its own run (the generation round
 * decides which result is kept). A remote engine may take minutes on a long visit.
 */
export const GENERATE_NOTE_QUEUE_OPTIONS = {
  policy: "stately",
  retryLimit: 3,
  retryDelay: 10,
  retryBackoff: true,
  retryDelayMax: 300,
  expireInSeconds: 15 * 60,
  heartbeatSeconds: 30,
  deadLetter: GENERATE_NOTE_DEAD_QUEUE,
} as const;

export const GENERATE_NOTE_DEAD_QUEUE_OPTIONS = {
  policy: "standard",
  retryLimit: 5,
  retryDelay: 30,
  retryBackoff: true,
} as const;
