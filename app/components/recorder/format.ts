/** "04:07" below an hour, "1:02:03" above: the elapsed time of a recording. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mm = String(minutes).padStart(2, "0");
  const ss = String(seconds).padStart(2, "0");
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** ISO 8601 duration for <time dateTime>. */
export function elapsedDateTime(ms: number): string {
  return `PT${Math.max(0, Math.floor(ms / 1000))}S`;
}

const FLOOR_DB = -60;

/**
 * RMS (0..1) to a 0..100 meter reading on a decibel scale (−60 dBFS → 0, 0 dBFS → 100): speech sits
 * around −30 to −10 dBFS, which a linear scale would squeeze into the bottom tenth.
 */
export function levelPercent(rms: number): number {
  if (!(rms > 0)) return 0;
  const db = 20 * Math.log10(Math.min(1, rms));
  return Math.round(Math.max(0, Math.min(100, ((db - FLOOR_DB) / -FLOOR_DB) * 100)));
}

/** Whole seconds until `at` (never negative). */
export function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}
