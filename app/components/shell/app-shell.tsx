import { Dialog } from "radix-ui";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { Brand } from "#app/components/brand.tsx";
import { OrgSwitcher } from "#app/components/org/org-switcher.tsx";
import { Icon } from "#app/components/ui/icons.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";
import { prefCookieHeader, SIDEBAR_COOKIE, type Theme } from "#app/services/prefs/prefs.ts";
import type { SessionUser } from "#app/services/session/user-context.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { LanguageMenu } from "./language-menu.tsx";
import { SidebarNav } from "./sidebar-nav.tsx";
import { UserMenu } from "./user-menu.tsx";

// The palette (cmdk) is fetched on first use: the shell's own JavaScript stays small.
const CommandPalette = lazy(() => import("./command-palette.tsx"));

export interface ShellProps {
  user: SessionUser;
  org: MemberOrg;
  orgs: MemberOrg[];
  sidebarCollapsed: boolean;
  theme: Theme;
  notices?: ReactNode;
  children: ReactNode;
}

/**
 * The signed-in layout (issue 11): a sidebar of sections (collapsible, a drawer below 768 px), a
 * top bar with the organisation, search (⌘K / Ctrl+K), language and account, then the notices
 * about the organisation, then the page. Every control is a link or a form first, so the shell
 * works before hydration and without JavaScript: the drawer falls back to the sidebar as a
 * `:target` overlay, search to the dashboard's patient search.
 */
export function AppShell({ user, org, orgs, sidebarCollapsed, theme, notices, children }: ShellProps) {
  const { t } = useTranslation("common");
  const to = useLocalizedPath();
  const { pathname, search } = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [paletteLoaded, setPaletteLoaded] = useState(false);
  const hydrated = useHydrated();
  const [collapsed, setCollapsed] = useState(sidebarCollapsed);
  const searchContent = (
    <>
      <Icon name="search" className="shrink-0" />
      <span className="shell-search-label ui-truncate">{t("palette.open")}</span>
      <kbd className="shell-search-kbd">⌘K</kbd>
    </>
  );

  const openPalette = useCallback(() => {
    setPaletteLoaded(true);
    setPaletteOpen(true);
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        setPaletteLoaded(true);
        setPaletteOpen((open) => !open);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div className="shell" data-sidebar={collapsed ? "collapsed" : "expanded"}>
      <a href="#main" className="ui-skip-link">
        {t("shell.skipToContent")}
      </a>
      <aside className="shell-sidebar" id="app-sidebar" aria-label={t("shell.sidebar")}>
        <div className="shell-sidebar-head">
          <Brand to="/dashboard" />
          <a href="#main" className="shell-sidebar-close ui-icon-button" aria-label={t("shell.closeMenu")}>
            <Icon name="close" />
          </a>
        </div>
        <SidebarNav />
        {/* Without JavaScript the form posts to /_prefs (cookie + redirect back); with it, the cookie is written here. */}
        <form
          method="post"
          action="/_prefs"
          className="shell-collapse"
          onSubmit={(event) => {
            event.preventDefault();
            const next = !collapsed;
            // biome-ignore lint/suspicious/noDocumentCookie: the cookie /_prefs would set, read by the server on the next page
            document.cookie = prefCookieHeader(SIDEBAR_COOKIE, next ? "collapsed" : "expanded", location.protocol === "https:");
            setCollapsed(next);
          }}
        >
          <input type="hidden" name="redirectTo" value={pathname + search} />
          <button
            type="submit"
            name="sidebar"
            value={collapsed ? "expanded" : "collapsed"}
            className="shell-nav-link"
            aria-label={collapsed ? t("shell.expandSidebar") : t("shell.collapseSidebar")}
            title={collapsed ? t("shell.expandSidebar") : t("shell.collapseSidebar")}
            data-testid="sidebar-toggle"
          >
            <Icon name={collapsed ? "expand" : "collapse"} />
            <span className="shell-nav-label">{t("shell.collapseSidebar")}</span>
          </button>
        </form>
      </aside>
      <div className="shell-body">
        <header className="shell-topbar">
          {hydrated ? (
            <button
              type="button"
              className="shell-menu-button ui-icon-button"
              aria-label={t("shell.openMenu")}
              aria-haspopup="dialog"
              aria-expanded={drawerOpen}
              data-testid="shell-menu-button"
              onClick={() => setDrawerOpen(true)}
            >
              <Icon name="menu" />
            </button>
          ) : (
            // Before hydration or without JavaScript: a link that shows the sidebar as a :target overlay.
            <a
              href="#app-sidebar"
              className="shell-menu-button ui-icon-button"
              aria-label={t("shell.openMenu")}
              data-testid="shell-menu-button"
            >
              <Icon name="menu" />
            </a>
          )}
          <OrgSwitcher org={org} orgs={orgs} />
          {hydrated ? (
            <button
              type="button"
              className="shell-search"
              aria-haspopup="dialog"
              aria-keyshortcuts="Meta+K Control+K"
              data-testid="command-palette-button"
              onClick={openPalette}
            >
              {searchContent}
            </button>
          ) : (
            // Before hydration or without JavaScript: the dashboard's patient search.
            <a href={to("/dashboard#patient-search")} className="shell-search" data-testid="command-palette-button">
              {searchContent}
            </a>
          )}
          <div className="shell-topbar-end">
            <LanguageMenu />
            <UserMenu user={user} theme={theme} />
          </div>
        </header>
        {notices ? <div className="shell-notices">{notices}</div> : null}
        <main id="main" className="shell-main" tabIndex={-1}>
          {children}
        </main>
      </div>
      <Dialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="ui-overlay" />
          <Dialog.Content className="shell-drawer" aria-describedby={undefined}>
            <div className="shell-sidebar-head">
              <Brand to="/dashboard" />
              <Dialog.Title className="sr-only">{t("shell.sidebar")}</Dialog.Title>
              <Dialog.Close className="ui-icon-button" aria-label={t("shell.closeMenu")}>
                <Icon name="close" />
              </Dialog.Close>
            </div>
            <SidebarNav onNavigate={() => setDrawerOpen(false)} />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      {paletteLoaded ? (
        <Suspense fallback={null}>
          <CommandPalette open={paletteOpen} onOpenChange={setPaletteOpen} org={org} />
        </Suspense>
      ) : null}
    </div>
  );
}
