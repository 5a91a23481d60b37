// Route side of the anonymous page cache (server/page-cache.ts, ADR 0033). A layout whose pages
// render the same HTML for every visitor without cookies exports `anonymousPageHeaders` as its
// `headers`; a child that must not be cached exports `uncachedPageHeaders`. The marker header is
// read and removed by the server, so it never reaches a browser or a proxy.
import type { HeadersFunction } from "react-router";

const MARKER = "X-Murmur-Page-Cache";

export const anonymousPageHeaders: HeadersFunction = ({ parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  headers.set(MARKER, "anonymous");
  return headers;
};

export const uncachedPageHeaders: HeadersFunction = ({ parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  headers.delete(MARKER);
  return headers;
};
