import { useTranslation } from "react-i18next";
import { Form, Link, useLocation } from "react-router";
import { DisclosureMenu } from "#app/components/ui/disclosure-menu.tsx";
import { Icon } from "#app/components/ui/icons.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { getAuthStore } from "#app/services/auth-client/use-auth-store.ts";
import { THEMES, type Theme } from "#app/services/prefs/prefs.ts";
import type { SessionUser } from "#app/services/session/user-context.ts";

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

/** Account, security, theme and sign-out. The trigger reads the user's email (truncated, full text in a tooltip). */
export function UserMenu({ user, theme }: { user: SessionUser; theme: Theme }) {
  const { t } = useTranslation("common");
  const to = useLocalizedPath();
  const { pathname, search } = useLocation();
  return (
    <DisclosureMenu
      className="user-menu"
      summary={
        <span className="ui-truncate user-menu-email" title={user.email} data-initial={user.email.slice(0, 1).toUpperCase()}>
          {user.email}
        </span>
      }
    >
      <ul>
        <li>
          <Link to={to("/settings")} className="ui-menu-item">
            <Icon name="user" className="shrink-0" />
            <span>{t("userMenu.account")}</span>
          </Link>
        </li>
        <li>
          <Link to={to("/settings")} className="ui-menu-item">
            <Icon name="shield" className="shrink-0" />
            <span>{t("userMenu.security")}</span>
          </Link>
        </li>
        <li className="ui-menu-separator">
          <p className="ui-menu-heading">{t("theme.label")}</p>
          <form method="post" action="/_prefs" className="ui-segmented" aria-label={t("theme.label")}>
            <input type="hidden" name="redirectTo" value={pathname + search} />
            {THEMES.map((value) => (
              <button key={value} type="submit" name="theme" value={value} aria-pressed={theme === value}>
                {t(`theme.${value}`)}
              </button>
            ))}
          </form>
        </li>
        <li className="ui-menu-separator">
          <Form
            method="post"
            action={to("/logout")}
            className="sign-out-form"
            onSubmit={(event) => signOutInBrowser(event, t("userMenu.unsentAudio"))}
          >
            <button type="submit" className="ui-menu-item" data-testid="sign-out">
              <Icon name="signOut" className="shrink-0" />
              <span>{t("userMenu.signOut")}</span>
            </button>
          </Form>
        </li>
      </ul>
    </DisclosureMenu>
  );
}
