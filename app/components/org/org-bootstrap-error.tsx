import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { Brand } from "#app/components/brand.tsx";
import { PageMeta } from "#app/components/page-meta.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { BootstrapErrorCode } from "#app/services/org-context/bootstrap.ts";

/**
 * SPEC §4/§8: the organisation could not be resolved. "Try again" is the manual retry — it forgets
 * the current organisation and reloads, so the server bootstraps from scratch.
 */
export function OrgBootstrapError({ code }: { code: BootstrapErrorCode }) {
  const { t } = useTranslation("org");
  const to = useLocalizedPath();
  const { pathname } = useLocation();
  return (
    <div className="app-layout">
      <header className="app-header">
        <Brand to="/dashboard" />
      </header>
      <main className="app-main">
        <PageMeta title={t("bootstrap.title")} />
        <article role="alert" data-testid="org-bootstrap-error" data-code={code}>
          <h1>{t("bootstrap.title")}</h1>
          <p>{t(`bootstrap.${code}`)}</p>
          <form method="post" action="/_org">
            <input type="hidden" name="intent" value="retry" />
            <input type="hidden" name="redirectTo" value={pathname} />
            <button type="submit">{t("bootstrap.retry")}</button>
          </form>
          <form method="post" action={to("/logout")}>
            <button type="submit" className="secondary outline">
              {t("bootstrap.signOut")}
            </button>
          </form>
        </article>
      </main>
    </div>
  );
}
