/**
 * EventSource and <audio> cannot send headers: for the visit's events stream and audio file the
 * organisation may also come from the `org_id` query parameter (when no `x-org-id` header is
 * sent). requireApiOrg still checks it against the caller's memberships, as it does the header,
 * so a page in one organisation keeps working when another tab switched the cookie elsewhere.
 */
export function withOrgFromQuery(request: Request): Request {
  if (request.headers.get("x-org-id")) return request;
  const orgId = new URL(request.url).searchParams.get("org_id")?.trim();
  if (!orgId) return request;
  const headers = new Headers(request.headers);
  // A header holds bytes only: a value that is not printable ASCII ("%ED%A0%80" decodes to U+FFFD)
  // would throw here; sent as a value no organisation has, it gets requireApiOrg's usual 4xx.
  headers.set("x-org-id", /^[\x21-\x7e]{1,200}$/.test(orgId) ? orgId : "invalid");
  return new Request(request.url, { method: request.method, headers });
}
