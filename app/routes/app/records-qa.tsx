import { AppPage } from "#app/components/app-page.tsx";
import { requireUser } from "#app/services/session/guards.server.ts";
import type { Route } from "./+types/records-qa";

export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

export default function Page() {
  return <AppPage page="recordsQa" />;
}
