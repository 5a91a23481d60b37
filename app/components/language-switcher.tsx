import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { LOCALES, localizePath } from "#app/i18n/config.ts";
import { useLocale } from "#app/i18n/use-locale.ts";

/**
 * Plain links through /_lang, which stores the choice in the i18n_redirected cookie and
 * redirects to the same page in the chosen language: works with and without JavaScript.
 */
export function LanguageSwitcher() {
  const { t } = useTranslation("common");
  const current = useLocale();
  const location = useLocation();
  return (
    <nav aria-label={t("language.label")} className="language-switcher">
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
