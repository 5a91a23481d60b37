// SPEC §7: the recorder's reconnect check. HEAD (and GET) answer 204 and are never cached.
export function loader() {
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

export { action } from "./method-not-allowed.ts";
