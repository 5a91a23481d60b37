// Issue 12: an Ask Murmur transcript citation opens /transcribing?visit_id=…&r=…&start=<second>;
// the page seeks its player there. Anything but a whole, non-negative second within a day is ignored.
const MAX_SECONDS = 24 * 60 * 60;

export function seekSecondsFrom(search: URLSearchParams): number | null {
  const raw = search.get("start");
  if (raw === null || !/^\d{1,6}$/.test(raw)) return null;
  const seconds = Number(raw);
  return seconds <= MAX_SECONDS ? seconds : null;
}
