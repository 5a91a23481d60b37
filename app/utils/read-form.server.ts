// The one way a page action (or a form-posting resource route) reads its body. `request.formData()`
// throws a TypeError — a 500 — for a JSON body, another content type, no content type or a broken
// multipart body, and silently turns invalid UTF-8 in a urlencoded body into U+FFFD. Anything a
// client can send must get a clear 4xx with a stable code instead (docs/api.md "Pages and redirects").

/** The encodings an HTML form (and React Router's `<Form>`, `useSubmit` and fetchers) post with. */
export const FORM_MEDIA_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"] as const;

export type FormErrorCode = "bad_form" | "unsupported_media_type";

const MESSAGES: Record<FormErrorCode, string> = {
  bad_form: "Could not parse request body as form data",
  unsupported_media_type: `Send the form as ${FORM_MEDIA_TYPES.join(" or ")}`,
};

/**
 * The thrown answer: JSON `{ code, message }` (like every API error) with 400 or 415. A page action
 * that throws it renders the error boundary, which translates `code` (errors.http.*); a resource
 * route hands it back as is.
 */
export function formErrorResponse(code: FormErrorCode): Response {
  const status = code === "unsupported_media_type" ? 415 : 400;
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (status === 415) headers["Accept-Post"] = FORM_MEDIA_TYPES.join(", ");
  return Response.json({ code, message: MESSAGES[code] }, { status, headers });
}

/**
 * The request's form fields, or a thrown 415 `unsupported_media_type` (not a form encoding, or no
 * Content-Type) / 400 `bad_form` (a multipart body that does not parse, urlencoded bytes or
 * percent-escapes that are not UTF-8). Use it instead of `request.formData()` in every action.
 */
export async function readForm(request: Request): Promise<FormData> {
  // Reading twice is a bug in the route, not the client's fault: let it surface as one.
  if (request.bodyUsed) throw new TypeError("readForm: the request body was already read");
  const mediaType = mediaTypeOf(request.headers.get("content-type"));
  if (mediaType === "application/x-www-form-urlencoded") {
    const fields = parseUrlEncoded(await bodyBytes(request));
    if (!fields) throw formErrorResponse("bad_form");
    return fields;
  }
  if (mediaType === "multipart/form-data") {
    try {
      return await request.formData();
    } catch {
      // A missing boundary, a body that is not multipart, a truncated or aborted upload.
      throw formErrorResponse("bad_form");
    }
  }
  throw formErrorResponse("unsupported_media_type");
}

/** `type/subtype` in lower case, without parameters (`; charset=UTF-8`, `; boundary=…`); "" when absent. */
function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? "";
}

async function bodyBytes(request: Request): Promise<Uint8Array> {
  try {
    return new Uint8Array(await request.arrayBuffer());
  } catch {
    // The client went away mid-body.
    throw formErrorResponse("bad_form");
  }
}

/**
 * application/x-www-form-urlencoded as the URL Standard parses it (split on "&", the first "=",
 * "+" is a space), but strict: bytes or percent-escapes that are not UTF-8, or a "%" that does not
 * start an escape, make the body malformed (null) instead of becoming U+FFFD or passing through.
 * Browsers never send either; storing U+FFFD in place of what a client meant would lose data.
 */
function parseUrlEncoded(bytes: Uint8Array): FormData | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
  const form = new FormData();
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = decodeComponent(eq === -1 ? "" : pair.slice(eq + 1));
    if (name === null || value === null) return null;
    form.append(name, value);
  }
  return form;
}

function decodeComponent(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    return null;
  }
}
