import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { Brand } from "./brand.tsx";
import { LanguageSwitcher } from "./language-switcher.tsx";

const LINKS = [
  ["/product", "marketingNav.product"],
  ["/product/transcription", "marketingNav.transcription"],
  ["/product/coding", "marketingNav.coding"],
  ["/pricing", "marketingNav.pricing"],
  ["/about", "marketingNav.about"],
] as const;

/** Public site header; below 768 px its links fold into a disclosure menu (no JavaScript needed). */
export function MarketingHeader() {
  const { t } = useTranslation("common");
  const to = useLocalizedPath();
  const links = LINKS.map(([path, key]) => (
    <li key={path}>
      <NavLink to={to(path)} end>
        {t(key)}
      </NavLink>
    </li>
  ));
  return (
    <header className="site-header container">
      <Brand />
      <nav aria-label={t("marketingNav.label")} className="site-nav">
        <ul className="site-nav-wide">{links}</ul>
        <details className="site-nav-narrow dropdown">
          <summary>{t("menu")}</summary>
          <ul>{links}</ul>
        </details>
      </nav>
      <div className="site-header-actions">
        <LanguageSwitcher />
        <NavLink to={to("/login")} role="button" className="ui-button" data-variant="secondary">
          {t("marketingNav.signIn")}
        </NavLink>
      </div>
    </header>
  );
}
