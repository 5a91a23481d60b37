import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";

export function SiteFooter() {
  const { t } = useTranslation("common");
  const to = useLocalizedPath();
  return (
    <footer className="site-footer container">
      <nav aria-label={t("footer.label")}>
        <ul>
          <li>
            <Link to={to("/about")}>{t("footer.about")}</Link>
          </li>
          <li>
            <Link to={to("/contact")}>{t("footer.contact")}</Link>
          </li>
          <li>
            <Link to={to("/support")}>{t("footer.support")}</Link>
          </li>
          <li>
            <Link to={to("/privacy-policy")}>{t("footer.privacy")}</Link>
          </li>
          <li>
            <Link to={to("/terms-of-service")}>{t("footer.terms")}</Link>
          </li>
        </ul>
      </nav>
      <small>{t("footer.copyright", { year: new Date().getFullYear() })}</small>
    </footer>
  );
}
