/**
 * A `date` column as YYYY-MM-DD. pg parses dates to local midnight, so the parts are read back in
 * local time, never through toISOString (which would shift a day east of UTC).
 */
export function isoDate(value: Date | string | null): string | null {
  if (value === null) return null;
  if (typeof value === "string") return value.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}
