import { LOCALES } from "#app/i18n/config.ts";
import { BUILD_ID } from "#app/runtime/build-info.ts";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { resolveAuthTarget } from "#app/services/session/auth-mode.server.ts";
import type { Route } from "./+types/api-public-config";

export { action } from "./method-not-allowed.ts";

// What the browser may know: where auth lives and the anon key. Never the service-role key.
export function loader({ request, context }: Route.LoaderArgs) {
  const target = resolveAuthTarget(
    context.get(runtimeContext),
    new URL(request.url).origin,
    context.get(requestInfoContext).clientIp,
  );
  return Response.json(
    { supabaseUrl: target.url, supabaseAnonKey: target.anonKey, buildId: BUILD_ID, locales: LOCALES },
    { headers: { "Cache-Control": "no-store" } },
  );
}
