/**
 * A date in the page's language and the organisation's time zone. The zone is explicit so the
 * server's rendering and the browser's hydration print the same text.
 */
export function formatDate(iso: string, locale: string, timeZone: string, withTime = true): string {
  try {
    return new Intl.DateTimeFormat(locale, {
      dateStyle: "medium",
      timeStyle: withTime ? "short" : undefined,
      timeZone,
    }).format(new Date(iso));
  } catch {
    return iso.slice(0, withTime ? 16 : 10).replace("T", " ");
  }
}

/** A date-only value (YYYY-MM-DD, no zone): printed as that calendar day everywhere. */
export function formatCalendarDate(isoDay: string, locale: string): string {
  return formatDate(`${isoDay}T12:00:00Z`, locale, "UTC", false);
}
