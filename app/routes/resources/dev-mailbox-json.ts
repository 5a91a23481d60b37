import { runtimeContext } from "#app/runtime/context.ts";
import { listMailbox } from "#app/services/auth/mailbox.server.ts";
import { FILE_SECURITY_HEADERS } from "#app/utils/file-response.ts";
import type { Route } from "./+types/dev-mailbox-json";

// Development only (MURMUR_DEV_MAILBOX=1): the outbox as JSON, newest first. Otherwise a 404.
export async function loader({ context }: Route.LoaderArgs) {
  const { auth } = context.get(runtimeContext);
  if (!auth.config.mailboxEnabled) {
    return Response.json({ code: "not_found", message: "Not Found" }, { status: 404, headers: { "Cache-Control": "no-store" } });
  }
  // The messages hold user text (names, addresses) and HTML bodies: never a page of this origin.
  return Response.json(await listMailbox(auth), { headers: { "Cache-Control": "no-store", ...FILE_SECURITY_HEADERS } });
}

export { action } from "./method-not-allowed.ts";
