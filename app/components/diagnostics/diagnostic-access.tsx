import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { localizePath } from "#app/i18n/config.ts";
import { useLocale } from "#app/i18n/use-locale.ts";

export type AccessView = { state: "anonymous" } | { state: "no_org" } | { state: "forbidden"; orgName: string };

/** What a diagnostic page shows instead of its tool: a sign-in prompt, or why this account cannot use it. */
export function DiagnosticAccessNotice({ access }: { access: AccessView }) {
  const { t } = useTranslation("app");
  const locale = useLocale();
  const location = useLocation();
  if (access.state === "anonymous") {
    const query = new URLSearchParams({ redirectTo: location.pathname });
    return (
      <p data-state="anonymous">
        {t("diagnostics.signInPrompt")} <Link to={`${localizePath("/login", locale)}?${query}`}>{t("diagnostics.signIn")}</Link>
      </p>
    );
  }
  if (access.state === "no_org") {
    return (
      <p data-state="no_org">
        {t("diagnostics.noOrg")} <Link to={localizePath("/organizations/new", locale)}>{t("diagnostics.createOrg")}</Link>
      </p>
    );
  }
  return (
    <p role="alert" data-state="forbidden">
      {t("diagnostics.forbidden", { org: access.orgName })}
    </p>
  );
}
