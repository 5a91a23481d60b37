import { z } from "zod";
import { INVALID_TEXT, isStorableLine, isStorableText } from "#app/utils/storable-text.ts";
import { NOTE_LANGUAGES } from "./model.ts";

// The notes API's bodies (docs/api.md "Notes"), shared by the resource routes and the editor's
// form actions. Isomorphic: no server imports.

// transcriptChars: the longest transcript a note is generated from (about nine hours of speech;
// issue 25: an 887,000-character transcript cost 9.3 s of CPU). docs/operations.md "Input limits".
export const NOTE_LIMITS = { sectionText: 20_000, sections: 40, reason: 2000, comment: 2000, transcriptChars: 500_000 } as const;

const SECTION_KEY = /^[a-z0-9_]{1,40}$/;

export const CreateNoteSchema = z.strictObject({
  template_id: z.string().trim().min(1).max(100).refine(isStorableLine, { error: INVALID_TEXT }),
  language: z.enum(NOTE_LANGUAGES).optional(),
});

export const SectionTextSchema = z.strictObject({
  key: z.string().regex(SECTION_KEY),
  text: z.string().max(NOTE_LIMITS.sectionText).refine(isStorableText, { error: INVALID_TEXT }),
});

export const SaveNoteSchema = z.strictObject({
  sections: z.array(SectionTextSchema).min(1).max(NOTE_LIMITS.sections),
  /** The note version the edit was made on (or the If-Match header). */
  version: z.number().int().min(1).max(2_147_483_647).optional(),
});

export const AmendNoteSchema = z.strictObject({
  sections: z.array(SectionTextSchema).min(1).max(NOTE_LIMITS.sections),
  reason: z.string().trim().min(1).max(NOTE_LIMITS.reason).refine(isStorableText, { error: INVALID_TEXT }),
});

export const RateNoteSchema = z.strictObject({
  rating: z.coerce.number().int().min(1).max(5),
  comment: z
    .string()
    .trim()
    .max(NOTE_LIMITS.comment)
    .refine(isStorableText, { error: INVALID_TEXT })
    .nullish()
    .transform((v) => v || null),
});

export const SectionKeySchema = z.string().regex(SECTION_KEY);

/** POST /api/notes/:id/checks/:checkId (issue 27): the only action is acknowledging, with an optional reason. */
export const CheckActionSchema = z.strictObject({
  action: z.literal("acknowledge"),
  reason: z
    .string()
    .trim()
    .max(NOTE_LIMITS.reason)
    .refine(isStorableText, { error: INVALID_TEXT })
    .nullish()
    .transform((v) => v || null),
});
