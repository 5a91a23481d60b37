import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { Icon } from "#app/components/ui/icons.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { APP_NAV } from "./nav-items.ts";

/**
 * The sections, icon and label. Labels never break mid-word: one line, truncated with the full
 * text in a title tooltip when a language runs long; when the sidebar is collapsed the label
 * stays the link's accessible name and the tooltip.
 */
export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation("common");
  const to = useLocalizedPath();
  return (
    <nav aria-label={t("nav.label")} className="shell-nav">
      <ul>
        {APP_NAV.map(({ path, key, icon }) => (
          <li key={path}>
            <NavLink to={to(path)} className="shell-nav-link" title={t(key)} onClick={onNavigate}>
              <Icon name={icon} />
              <span className="shell-nav-label">{t(key)}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
