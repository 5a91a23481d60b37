import { checkDatabase } from "#app/db/health.server.ts";
import { runtimeContext } from "#app/runtime/context.ts";
import type { Route } from "./+types/readyz";

export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  const ok = await checkDatabase(db);
  return Response.json(
    { status: ok ? "ok" : "unavailable", database: ok ? "ok" : "unreachable" },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}

export { action } from "./method-not-allowed.ts";
