/**
 * Today's visits by where they stand (issue 16); shared by the service and the page. `coded` needs
 * coding cases (issue 13), not on this branch: it is reported as 0 beside these.
 */
export const TODAY_STATUSES = ["recording", "transcribing", "ready_for_note", "draft_to_sign", "signed", "failed"] as const;
export type TodayStatus = (typeof TODAY_STATUSES)[number];
