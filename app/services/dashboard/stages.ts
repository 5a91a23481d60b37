/**
 * Today's visits by where they stand (issue 16); shared by the service and the page. `coded`: the
 * visit's coding case (issue 13) is coded or exported.
 */
export const TODAY_STATUSES = [
  "recording",
  "transcribing",
  "ready_for_note",
  "draft_to_sign",
  "signed",
  "coded",
  "failed",
] as const;
export type TodayStatus = (typeof TODAY_STATUSES)[number];
