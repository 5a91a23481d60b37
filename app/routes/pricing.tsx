import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Brand } from "#app/components/brand.tsx";
import { LanguageSwitcher } from "#app/components/language-switcher.tsx";
import { PlanCard } from "#app/components/org/plan-card.tsx";
import { PageMeta } from "#app/components/page-meta.tsx";
import { SiteFooter } from "#app/components/site-footer.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { PLAN_ORDER, TRIAL_DAYS } from "#app/services/billing/plans.ts";
import { anonymousPageHeaders } from "#app/utils/page-cache.ts";

// The same page for every visitor without cookies: served from the anonymous page cache.
export const headers = anonymousPageHeaders;

/**
 * SPEC §2: public, no layout of its own. Issue 4: Trial, Solo, Practice and Clinic with what each
 * includes; the numbers come from the plan catalogue, the words from marketing.json "pricing".
 */
export default function Pricing() {
  const { t } = useTranslation("marketing");
  const to = useLocalizedPath();
  return (
    <div className="pricing-page">
      <PageMeta title={t("pricing.title")} description={t("pricing.description", { days: TRIAL_DAYS })} />
      <header className="site-header container">
        <Brand />
        <LanguageSwitcher />
      </header>
      <main className="container">
        <header className="pricing-hero">
          <h1>{t("pricing.title")}</h1>
          <p>{t("pricing.lead", { days: TRIAL_DAYS })}</p>
        </header>
        <div className="plan-grid">
          {PLAN_ORDER.map((plan) => (
            <PlanCard key={plan} plan={plan}>
              <Link
                to={to(plan === "Clinic" ? "/contact" : "/signup")}
                className="ui-button"
                data-variant={plan === "Clinic" ? "secondary" : undefined}
              >
                {plan === "Clinic" ? t("pricing.contactSales") : t("pricing.choose")}
              </Link>
            </PlanCard>
          ))}
        </div>
        <p className="pricing-note">{t("pricing.note")}</p>
      </main>
      <SiteFooter />
    </div>
  );
}
