import { addDays, type CalendarDay, todayInZone, zonedDayBounds, zonedDayStart } from "#app/utils/zoned-time.ts";

// The dashboard's date range (issue 16): calendar days in the organisation's time zone, inclusive.
// Shared by the page, the JSON API and the CSV export so they always cut the same days.

/** Preset ranges offered on the page; a custom range may be up to a year and a day (leap years). */
export const RANGE_PRESETS = [7, 30, 90] as const;
export const MAX_RANGE_DAYS = 366;
export const DEFAULT_RANGE_DAYS = 30;

export interface DayBucket {
  day: CalendarDay;
  start: Date;
  end: Date;
}

export interface DashboardRange {
  from: CalendarDay;
  to: CalendarDay;
  timezone: string;
  days: DayBucket[];
  /** [start of `from`, start of the day after `to`) on the organisation's clock. */
  start: Date;
  end: Date;
}

/** Whole days from `from` to `to`, inclusive (calendar arithmetic, no zone involved). */
export function daysBetween(from: CalendarDay, to: CalendarDay): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The last `days` days up to today in `timezone` (today included). */
export function presetRange(days: number, timezone: string, now: Date): { from: CalendarDay; to: CalendarDay } {
  const to = todayInZone(timezone, now);
  return { from: addDays(to, -(days - 1)), to };
}

/**
 * Every day of the range with its [start, end) instants. Days are 23 or 25 hours long on
 * daylight-saving changes; zonedDayStart knows, so SQL never has to.
 */
export function buildRange(from: CalendarDay, to: CalendarDay, timezone: string): DashboardRange {
  const count = daysBetween(from, to);
  const days: DayBucket[] = [];
  let start = zonedDayStart(from, timezone);
  for (let i = 0; i < count; i++) {
    const day = addDays(from, i);
    const end = zonedDayStart(addDays(day, 1), timezone);
    days.push({ day, start, end });
    start = end;
  }
  return { from, to, timezone, days, start: zonedDayStart(from, timezone), end: zonedDayBounds(to, timezone).end };
}
