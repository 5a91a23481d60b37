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
  headers.set("x-org-id", orgId);
  return new Request(request.url, { method: request.method, headers });
}
