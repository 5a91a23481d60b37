import type { TFunction } from "i18next";

/** A duration in the largest unit that keeps it readable: 45 s, 12 min, 3 h, 2 d. */
export function formatDuration(seconds: number, t: TFunction<"dashboard">): string {
  if (seconds < 90) return t("duration.seconds", { count: Math.round(seconds) });
  if (seconds < 90 * 60) return t("duration.minutes", { count: Math.round(seconds / 60) });
  if (seconds < 48 * 3600) return t("duration.hours", { count: Math.round(seconds / 360) / 10 });
  return t("duration.days", { count: Math.round(seconds / 8640) / 10 });
}
