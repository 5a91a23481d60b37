import { useTranslation } from "react-i18next";
import { LanguageSwitcher } from "#app/components/language-switcher.tsx";
import { DisclosureMenu } from "#app/components/ui/disclosure-menu.tsx";
import { Icon } from "#app/components/ui/icons.tsx";
import { useLocale } from "#app/i18n/use-locale.ts";

/** The top bar's language choice: the same /_lang links as the public pages, folded into a menu. */
export function LanguageMenu() {
  const { t } = useTranslation("common");
  const locale = useLocale();
  return (
    <DisclosureMenu
      className="language-menu"
      testId="language-menu"
      summary={
        <>
          <Icon name="globe" className="shrink-0" />
          <span className="sr-only">{t("language.label")}: </span>
          <abbr className="uppercase no-underline" title={t(`language.${locale}`)}>
            {locale}
          </abbr>
        </>
      }
    >
      <LanguageSwitcher variant="menu" />
    </DisclosureMenu>
  );
}
