/**
 * The reasons a coder picks when rejecting a suggestion on the coding page (issue 13); the API also
 * takes free text. Shared by the page and the dashboard's quality telemetry (issue 16), which counts
 * these codes in its PHI-free export and never the free text.
 */
export const CODING_REJECT_REASONS = ["not_documented", "not_addressed", "wrong_code", "duplicate", "other"] as const;
export type CodingRejectReason = (typeof CODING_REJECT_REASONS)[number];

export const isCodingRejectReason = (value: string): value is CodingRejectReason =>
  (CODING_REJECT_REASONS as readonly string[]).includes(value);
