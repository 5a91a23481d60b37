/** The answer of a read-only resource route to any other method: 405 with a stable code. */
export function methodNotAllowed(allow = "GET, HEAD"): Response {
  return Response.json(
    { code: "method_not_allowed", message: "Method Not Allowed" },
    { status: 405, headers: { Allow: allow, "Cache-Control": "no-store" } },
  );
}

export const action = () => methodNotAllowed();

/** For action-only resource routes: a GET is answered 405 with the method they accept. */
export const loader = () => methodNotAllowed("POST");
