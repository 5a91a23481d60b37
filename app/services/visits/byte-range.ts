/** What a Range header asks of a body of `size` bytes (RFC 9110 §14). */
export type ByteRange = { kind: "full" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

// Any number of digits: a last-byte position far past the end (even past 2^53) is still a valid
// range, clamped below (RFC 9110 §14.1.2); only the first position decides satisfiability.
const SINGLE = /^bytes=(\d*)-(\d*)$/;

/**
 * One `bytes` range (what an <audio> element sends to seek): `a-b`, `a-` or the suffix `-n`. A
 * header in another unit, or with several ranges, is ignored (the whole body, as RFC 9110
 * allows). An end past the end of the body is clamped to its last byte, a suffix longer than the
 * body is the whole body; a bytes range that is malformed, ends before it starts or starts past
 * the end is unsatisfiable (416, RFC 9110 §14.1.2 and §15.5.17).
 */
export function parseByteRange(header: string | null, size: number): ByteRange {
  if (header === null) return { kind: "full" };
  const value = header.trim().toLowerCase().replace(/\s+/g, "");
  if (!value.startsWith("bytes=") || value.includes(",")) return { kind: "full" };
  const match = SINGLE.exec(value);
  if (!match) return { kind: "unsatisfiable" };
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return { kind: "unsatisfiable" };
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || (last !== "" && Number(last) < start)) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end };
}
