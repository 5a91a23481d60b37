import { useTranslation } from "react-i18next";
import { NavLink, Outlet } from "react-router";
import { PageMeta } from "#app/components/page-meta.tsx";
import { Page } from "#app/components/ui/page.tsx";
import type { OrgRole } from "#app/db/schema.ts";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import type { Route } from "./+types/layout";

const MANAGERS: readonly OrgRole[] = ["owner", "admin"];

/** Settings sections (docs/permissions.md): invitations and the audit log are for owners and admins. */
const TABS = [
  { path: "/settings", key: "tabs.account", roles: null, end: true },
  { path: "/settings/organization", key: "tabs.organization", roles: null, end: false },
  { path: "/settings/members", key: "tabs.members", roles: null, end: false },
  { path: "/settings/invitations", key: "tabs.invitations", roles: MANAGERS, end: false },
  { path: "/settings/billing", key: "tabs.billing", roles: null, end: false },
  { path: "/settings/audit", key: "tabs.audit", roles: MANAGERS, end: false },
  { path: "/settings/speech", key: "tabs.speech", roles: MANAGERS, end: false },
] as const;

export function loader({ context }: Route.LoaderArgs) {
  const { org, role } = requireOrg(context);
  return { orgName: org.name, role };
}

export default function SettingsLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation(["app", "org"]);
  const to = useLocalizedPath();
  const tabs = TABS.filter((tab) => !tab.roles || tab.roles.includes(loaderData.role));
  return (
    <div className="app-page settings-page" data-page="settings">
      <PageMeta title={t("app:settings.title")} />
      <Page title={t("app:settings.title")} description={t("app:settings.intro")}>
        {/* Links, not a tablist: each tab is its own page that works without JavaScript. */}
        <nav aria-label={t("org:settingsTabs.label")} className="settings-tabs ui-tabs">
          <ul>
            {tabs.map((tab) => (
              <li key={tab.path}>
                <NavLink to={to(tab.path)} end={tab.end}>
                  {t(`org:settingsTabs.${tab.key.slice("tabs.".length)}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-body">
          <Outlet />
        </div>
      </Page>
    </div>
  );
}
