import { AppError } from "#app/utils/app-error.ts";

/**
 * POST /api/coding/suggest's text, in characters (docs/operations.md "Input limits"): about 25
 * pages; the engine's cost grows with it and runs on a worker thread (issue 25).
 */
export const CODING_LIMITS = { suggestText: 100_000 } as const;

export const codingLimitErrors = {
  textTooLong: (max: number) => new AppError(413, "text_too_long", `The text is too long to code (at most ${max} characters)`),
};
