import { Outlet } from "react-router";
import { AppHeader } from "#app/components/app-header.tsx";
import { requireUser } from "#app/services/session/guards.server.ts";
import type { Route } from "./+types/app";

// Signed-in pages (SPEC §2, §6). The guard runs once per request, before any page loader.
const requireUserMiddleware: Route.MiddlewareFunction = ({ context, request }) => {
  requireUser(context, request);
};

export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware];

export function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  return { user: { id: user.id, email: user.email } };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="app-layout">
      <AppHeader user={loaderData.user} />
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
