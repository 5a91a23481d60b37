/**
 * The headers of every response that hands back a stored or generated file (the visit audio, a
 * note's PDF, a template export, the dev mailbox): whatever the bytes hold, a browser must never
 * run them as a page or a script of Murmur's origin. An uploader's label once did exactly that
 * (`audio/wav; x=1, text/html` is read as text/html by browsers).
 * - `Content-Security-Policy: default-src 'none'; sandbox`: opened as a document, it loads and runs
 *   nothing, in an opaque origin (the page-wide policy allows same-origin scripts).
 * - `X-Content-Type-Options: nosniff`: the declared type is final; nothing is sniffed into HTML, and
 *   a non-JavaScript type can never be used by a <script>.
 * - `Cross-Origin-Resource-Policy: same-origin`: another site cannot embed it.
 */
export const FILE_SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "X-Content-Type-Options": "nosniff",
  "Cross-Origin-Resource-Policy": "same-origin",
} as const;

/** `inline` only for audio an <audio> element plays; everything else is downloaded. */
export type Disposition = "inline" | "attachment";

const EXTENSION = /^[a-z0-9][a-z0-9.-]{0,39}$/;
const MAX_NAME_CHARS = 100;

/** The name without what a header or a file system must not see: controls, bidi overrides, separators. */
function cleanName(base: string): string {
  const cleaned = base
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu, "")
    .replace(/["\\/:*?<>|]/g, "_")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  return Array.from(cleaned).slice(0, MAX_NAME_CHARS).join("").trim();
}

/** The quoted `filename=` for old clients: printable ASCII without quote, backslash or percent. */
function asciiName(clean: string): string {
  return clean
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._ -]+/g, "_")
    .replace(/_+/g, "_");
}

/** RFC 5987 value-chars: every byte outside attr-char percent-encoded (encodeURIComponent leaves ' ( ) * alone). */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * A Content-Disposition value (RFC 6266) for `base` + `.extension`, whatever user text `base` holds
 * (a template's name): an ASCII `filename` and the exact name as `filename*=UTF-8''…` (RFC 5987).
 * No CR, LF, quote or backslash can reach the header. `extension` is the caller's constant.
 */
export function contentDisposition(disposition: Disposition, base: string, extension: string): string {
  if (!EXTENSION.test(extension)) throw new Error(`not a file extension: ${extension}`);
  const clean = cleanName(base) || "download";
  const ascii = asciiName(clean).replace(/^[\s.]+|[\s.]+$/g, "") || "download";
  return `${disposition}; filename="${ascii}.${extension}"; filename*=UTF-8''${encodeRfc5987(`${clean}.${extension}`)}`;
}

/**
 * Everything a file response needs besides its length and range: the server's own fixed
 * `contentType` (never one a client supplied), the disposition and file name, no caching by
 * default, and FILE_SECURITY_HEADERS.
 */
export function fileResponseHeaders(file: {
  contentType: string;
  disposition: Disposition;
  /** The file name without its extension; may be user text. */
  name: string;
  extension: string;
  cacheControl?: string;
}): Headers {
  return new Headers({
    "Content-Type": file.contentType,
    "Content-Disposition": contentDisposition(file.disposition, file.name, file.extension),
    "Cache-Control": file.cacheControl ?? "no-store",
    ...FILE_SECURITY_HEADERS,
  });
}
