/**
 * GoTrue's phone format: spaces and a leading "+" dropped, then E.164 digits (country code
 * first, at most 15 digits). Returns null when the number cannot be one.
 */
export function normalizePhone(input: string): string | null {
  const phone = input.replace(/^\+/, "").replaceAll(" ", "");
  return /^[1-9][0-9]{1,14}$/.test(phone) ? phone : null;
}
