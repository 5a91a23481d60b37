// Days and times as the organisation lives them. Rule: everything a user reads or filters by day is
// in the organisation's time zone (`organizations.timezone`, IANA), never the server's or UTC's
// calendar; a date-only value (a date of birth) is a calendar day and is never moved by a zone.
// Shared by loaders, services and components, so the server's rendering, the browser's hydration
// and the database filters all cut days at the same instants. Everything here is pure: "now" is a
// parameter wherever it matters, so tests pin it.

/** A calendar day, `YYYY-MM-DD`. */
export type CalendarDay = string;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

const partFormatters = new Map<string, Intl.DateTimeFormat>();

/** Numeric wall-clock parts in `timeZone` (cached per zone: the day arithmetic calls it often). */
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let format = partFormatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partFormatters.set(timeZone, format);
  }
  return format;
}

/** Whether this runtime knows `timeZone` (an IANA name such as "Europe/Paris"). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    partsFormatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

function wallClock(instant: number, timeZone: string) {
  const parts = partsFormatter(timeZone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour"),
    minute: get("minute"),
    second: get("second"),
  };
}

function parseDay(day: CalendarDay): [number, number, number] {
  const m = DAY_PATTERN.exec(day);
  if (!m) throw new RangeError(`not a calendar day: ${day}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

/** The calendar day `instant` falls on in `timeZone`. */
export function dayInZone(instant: Date | string | number, timeZone: string): CalendarDay {
  const w = wallClock(new Date(instant).getTime(), timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** `YYYY-MM-DD HH:MM` on `timeZone`'s wall clock: documents that must read the same in every language. */
export function zonedDateTime(instant: Date | string | number, timeZone: string): string {
  const w = wallClock(new Date(instant).getTime(), timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`;
}

/** Today in `timeZone`: what "today" means to the organisation, whatever the server's zone. */
export function todayInZone(timeZone: string, now: Date = new Date()): CalendarDay {
  return dayInZone(now, timeZone);
}

/** `day` moved by `days` calendar days (no zone involved). */
export function addDays(day: CalendarDay, days: number): CalendarDay {
  const [y, m, d] = parseDay(day);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The first instant of calendar day `day` in `timeZone`. Days are 23 or 25 hours long on
 * daylight-saving changes, and where midnight itself is skipped (clocks jump from 23:59 to 01:00)
 * the day starts at the jump. Done in JavaScript with the same ICU data the pages format with, so
 * a day's rows and the times printed on them always agree (and a zone the database's tz data
 * lacks cannot fail a query).
 */
export function zonedDayStart(day: CalendarDay, timeZone: string): Date {
  const [y, m, d] = parseDay(day);
  const wall = Date.UTC(y, m - 1, d);
  const first = wall - zoneOffsetMs(wall, timeZone);
  // The offset at local midnight may differ from the one at UTC midnight when a change falls between them.
  const second = wall - zoneOffsetMs(first, timeZone);
  // Earliest candidate already on (or past) `day`: both agree on ordinary days; on a skipped midnight
  // one of them lands in the previous evening.
  const [early, late] = first <= second ? [first, second] : [second, first];
  return new Date(dayInZone(early, timeZone) >= day ? early : late);
}

/** `[start, end)` of calendar day `day` in `timeZone`: filter with `at >= start and at < end`. */
export function zonedDayBounds(day: CalendarDay, timeZone: string): { start: Date; end: Date } {
  return { start: zonedDayStart(day, timeZone), end: zonedDayStart(addDays(day, 1), timeZone) };
}

/** The first instant of the calendar month `now` falls in, in `timeZone`. */
export function zonedMonthStart(now: Date, timeZone: string): Date {
  return zonedDayStart(`${dayInZone(now, timeZone).slice(0, 8)}01`, timeZone);
}

/**
 * An instant in the page's language and the organisation's time zone. The zone is explicit so the
 * server's rendering and the browser's hydration print the same text; an unknown zone prints UTC
 * rather than failing the page.
 */
export function formatInZone(
  instant: Date | string | number,
  locale: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" },
): string {
  const date = new Date(instant);
  try {
    return dateTimeFormat(locale, { ...options, timeZone }).format(date);
  } catch {
    return dateTimeFormat(locale, { ...options, timeZone: "UTC" }).format(date);
  }
}

/** A date and time (or a date only) in the organisation's zone, medium style: lists and tables. */
export function formatDate(instant: Date | string | number, locale: string, timeZone: string, withTime = true): string {
  return formatInZone(
    instant,
    locale,
    timeZone,
    withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" },
  );
}

/** A date-only value (a date of birth): printed as that calendar day everywhere, never shifted by a zone. */
export function formatCalendarDate(day: CalendarDay, locale: string, dateStyle: "medium" | "long" = "medium"): string {
  const [y, m, d] = parseDay(day);
  return dateTimeFormat(locale, { dateStyle, timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, d, 12)));
}

// Building an Intl.DateTimeFormat costs far more than formatting with one: the dashboard's chart
// formats a date per bar, and that constructor was 4 % of the server's busy time under load
// (issue 25 profile). Formatters are kept per locale and options; the set of both is small.
const formatters = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    if (formatters.size >= 500) formatters.clear();
    formatters.set(key, format);
  }
  return format;
}

/** Whole years from calendar day `birth` to calendar day `on` (a birthday counts from its own day). */
export function ageOn(birth: CalendarDay, on: CalendarDay): number {
  const [by, bm, bd] = parseDay(birth);
  const [y, m, d] = parseDay(on);
  const age = y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
  return Math.max(0, age);
}
