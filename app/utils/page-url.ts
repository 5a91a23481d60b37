/**
 * The page a request is for. Client navigations fetch loader and action data from `<path>.data`
 * (with a `_routes` parameter); redirects and "return to" links must name the page itself.
 */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  if (url.pathname.endsWith(".data")) {
    url.pathname = url.pathname.slice(0, -".data".length);
    if (url.pathname === "/_root") url.pathname = "/";
  }
  url.searchParams.delete("_routes");
  return url;
}
