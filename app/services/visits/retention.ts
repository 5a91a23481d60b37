// Issue 5 "Storage": per-organisation audio retention, in days after the transcript is accepted.
// Stored in organizations.settings (jsonb) so no column is needed; read everywhere through here.

export const AUDIO_RETENTION_DEFAULT_DAYS = 30;
export const AUDIO_RETENTION_MIN_DAYS = 0;
export const AUDIO_RETENTION_MAX_DAYS = 365;

export function isRetentionDays(value: unknown): value is number {
  return (
    typeof value === "number" && Number.isInteger(value) && value >= AUDIO_RETENTION_MIN_DAYS && value <= AUDIO_RETENTION_MAX_DAYS
  );
}

/** The organisation's retention; anything missing or out of range (a hand-edited row) is the default. */
export function audioRetentionDays(settings: Record<string, unknown> | null | undefined): number {
  const value = settings?.audio_retention_days;
  return isRetentionDays(value) ? value : AUDIO_RETENTION_DEFAULT_DAYS;
}
