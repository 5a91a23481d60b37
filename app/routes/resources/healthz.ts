import { BUILD_ID } from "#app/runtime/build-info.ts";

/** Liveness: the process answers. Readiness (database) is /readyz. */
export function loader() {
  return Response.json({ status: "ok", build: BUILD_ID }, { headers: { "Cache-Control": "no-store" } });
}

export { action } from "./method-not-allowed.ts";
