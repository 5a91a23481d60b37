import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { LOCALES, localizePath } from "#app/i18n/config.ts";
import { useLocale } from "#app/i18n/use-locale.ts";

/**
 * Plain links through /_lang, which stores the choice in the i18n_redirected cookie and
 * redirects to the same page in the chosen language: works with and without JavaScript.
 */
export function LanguageSwitcher({ variant = "inline" }: { variant?: "inline" | "menu" }) {
  const { t } = useTranslation("common");
  const current = useLocale();
  const location = useLocation();
  return (
    <nav aria-label={t("language.label")} className="language-switcher" data-variant={variant}>
      <ul>
        {LOCALES.map((locale) => {
          const target = localizePath(location.pathname, locale) + location.search;
          const href = `/_lang?${new URLSearchParams({ lng: locale, redirectTo: target })}`;
          return (
            <li key={locale}>
              <a
                href={href}
                hrefLang={locale}
                lang={locale}
                aria-current={locale === current ? "true" : undefined}
                data-locale={locale}
                className={variant === "menu" ? "ui-menu-item" : undefined}
              >
                {t(`language.${locale}`)}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
