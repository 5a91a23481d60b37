import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { handleAuthRequest } from "#app/services/auth/api/router.server.ts";
import type { Route } from "./+types/auth-api";

// The embedded, GoTrue-compatible auth API (docs/auth.md). supabase-js talks to it as to Supabase.
function handle({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const { auth } = context.get(runtimeContext);
  const { clientIp } = context.get(requestInfoContext);
  return handleAuthRequest(request, auth, { ip: clientIp, userAgent: request.headers.get("user-agent") });
}

export const loader = handle;
export const action = handle;
