import { Outlet, useLocation } from "react-router";
import { OrgBanners } from "#app/components/org/org-banners.tsx";
import { OrgBootstrapError } from "#app/components/org/org-bootstrap-error.tsx";
import { OrgSwitchNotice } from "#app/components/org/org-switch-notice.tsx";
import { AskWidget } from "#app/components/rag/ask-widget.tsx";
import { AppShell } from "#app/components/shell/app-shell.tsx";
import { PracticeAccent } from "#app/components/shell/practice-accent.tsx";
import { stripLocale } from "#app/i18n/config.ts";
import { orgMiddleware } from "#app/middleware/org.server.ts";
import { runtimeContext } from "#app/runtime/context.ts";
import { isOrgBootstrapFailure, requireOrg } from "#app/services/org-context/current-org.ts";
import { OrgStoreSync } from "#app/services/org-context/use-org-store.tsx";
import { readSidebarCollapsed, readTheme } from "#app/services/prefs/prefs.ts";
import type { Route } from "./+types/app";

// Signed-in pages (SPEC §2, §6). The middleware signs the visitor in or sends them to /login, then
// resolves the current organisation once per request, before any page loader.
export const middleware: Route.MiddlewareFunction[] = [orgMiddleware];

export function loader({ context, request }: Route.LoaderArgs) {
  const { user, org, orgs, switchedFrom } = requireOrg(context);
  const timeoutMs = context.get(runtimeContext).env.ORG_BOOTSTRAP_TIMEOUT_MS;
  return {
    user: { id: user.id, email: user.email },
    org,
    orgs,
    switched: switchedFrom !== null,
    timeoutMs,
    sidebarCollapsed: readSidebarCollapsed(request),
    theme: readTheme(request),
  };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  const { user, org, orgs, switched, timeoutMs, sidebarCollapsed, theme } = loaderData;
  // SPEC §2: the assistant widget on every signed-in page except /records-qa (the same assistant, full page).
  const onRecordsQa = stripLocale(useLocation().pathname) === "/records-qa";
  return (
    <>
      <OrgStoreSync org={org} orgs={orgs} timeoutMs={timeoutMs} />
      <PracticeAccent hex={org.accent_color} />
      <AppShell
        user={user}
        org={org}
        orgs={orgs}
        sidebarCollapsed={sidebarCollapsed}
        theme={theme}
        notices={<OrgBanners org={org} />}
      >
        {switched ? <OrgSwitchNotice orgName={org.name} /> : null}
        {/* Keyed by organisation: a switch never leaves another tenant's state in a component. */}
        <Outlet key={org.id} />
      </AppShell>
      {/* Keyed by organisation too: a switch starts an empty chat (SPEC §2: cleared on mount). */}
      {onRecordsQa ? null : <AskWidget key={org.id} orgId={org.id} timeZone={org.timezone} />}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorWithOrgFailure(error)) return <OrgBootstrapError code={error.data.orgBootstrap} />;
  throw error;
}

function isRouteErrorWithOrgFailure(
  error: unknown,
): error is { data: { orgBootstrap: Parameters<typeof OrgBootstrapError>[0]["code"] } } {
  return typeof error === "object" && error !== null && "data" in error && isOrgBootstrapFailure(error.data);
}
