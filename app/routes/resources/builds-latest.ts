import { BUILD_ID, BUILD_TIME } from "#app/runtime/build-info.ts";

// SPEC §4 Version updates: the browser compares this id with the one it was built with.
export function loader() {
  return Response.json({ id: BUILD_ID, timestamp: BUILD_TIME }, { headers: { "Cache-Control": "no-store" } });
}

export { action } from "./method-not-allowed.ts";
