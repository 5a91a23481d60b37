import { AppPage } from "#app/components/app-page.tsx";
import { requireUser } from "#app/services/session/guards.server.ts";
import { optionalIdParam } from "#app/services/session/page-validity.server.ts";
import type { Route } from "./+types/coding";

export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  return { id: optionalIdParam(new URL(request.url), "id") };
}

export default function Page() {
  return <AppPage page="coding" />;
}
