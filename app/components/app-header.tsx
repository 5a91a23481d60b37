import { useTranslation } from "react-i18next";
import { Form, NavLink } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { getAuthStore } from "#app/services/auth-client/use-auth-store.ts";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";
import type { SessionUser } from "#app/services/session/user-context.ts";
import { Brand } from "./brand.tsx";
import { LanguageSwitcher } from "./language-switcher.tsx";
import { OrgSwitcher } from "./org/org-switcher.tsx";

export const APP_NAV = [
  ["/dashboard", "nav.dashboard"],
  ["/transcribing", "nav.transcribing"],
  ["/coding", "nav.coding"],
  ["/records-qa", "nav.recordsQa"],
  ["/periodontal-chart", "nav.periodontalChart"],
  ["/custom-templates", "nav.customTemplates"],
  ["/settings", "nav.settings"],
] as const;

/**
 * With JavaScript, sign-out follows SPEC §4 (fast/full paths, local clean-up, server logout) in the
 * browser store; without it, or before the store has started, the form posts to /logout.
 */
function signOutInBrowser(event: React.FormEvent<HTMLFormElement>, confirmMessage: string) {
  const store = getAuthStore();
  if (!store) return;
  event.preventDefault();
  // Audio stays safe in IndexedDB either way, but a clinician should know it has not reached the server.
  if (store.hasAudioAtRisk() && !window.confirm(confirmMessage)) return;
  void store.signOut();
}

/** Signed-in header: main navigation (a disclosure menu on narrow screens), language, user menu. */
export function AppHeader({ user, org, orgs }: { user: SessionUser; org: MemberOrg; orgs: MemberOrg[] }) {
  const { t } = useTranslation("common");
  const to = useLocalizedPath();
  const links = APP_NAV.map(([path, key]) => (
    <li key={path}>
      <NavLink to={to(path)}>{t(key)}</NavLink>
    </li>
  ));
  return (
    <header className="app-header">
      <Brand to="/dashboard" />
      <nav aria-label={t("nav.label")} className="app-nav">
        <ul className="app-nav-wide">{links}</ul>
        <details className="app-nav-narrow dropdown">
          <summary>{t("menu")}</summary>
          <ul>{links}</ul>
        </details>
      </nav>
      <div className="app-header-actions">
        <OrgSwitcher org={org} orgs={orgs} />
        <LanguageSwitcher />
        <details className="dropdown user-menu">
          <summary aria-label={t("userMenu.label")}>{user.email}</summary>
          <ul>
            <li>
              <NavLink to={to("/settings")}>{t("nav.settings")}</NavLink>
            </li>
            <li>
              <Form
                method="post"
                action={to("/logout")}
                className="sign-out-form"
                onSubmit={(event) => signOutInBrowser(event, t("userMenu.unsentAudio"))}
              >
                <button type="submit" className="secondary outline" data-testid="sign-out">
                  {t("userMenu.signOut")}
                </button>
              </Form>
            </li>
          </ul>
        </details>
      </div>
    </header>
  );
}
