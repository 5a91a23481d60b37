/** What a Range header asks of a body of `size` bytes (RFC 9110 §14). */
export type ByteRange = { kind: "full" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

const SINGLE = /^bytes=(\d{0,15})-(\d{0,15})$/;

/**
 * One `bytes` range (what an <audio> element sends to seek): `a-b`, `a-` or the suffix `-n`. A
 * header in another unit, or with several ranges, is ignored (the whole body, as RFC 9110
 * allows); a bytes range that is malformed or starts past the end is unsatisfiable (416).
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
