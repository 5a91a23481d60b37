import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Brand } from "#app/components/brand.tsx";
import { LanguageSwitcher } from "#app/components/language-switcher.tsx";
import { PageMeta } from "#app/components/page-meta.tsx";
import { SiteFooter } from "#app/components/site-footer.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";

interface Plan {
  id: string;
  name: string;
  price: string;
  summary: string;
  features: string[];
}

/** SPEC §2: public, no layout of its own. Plan words live in marketing.json under pricing. */
export default function Pricing() {
  const { t } = useTranslation("marketing");
  const to = useLocalizedPath();
  const plans = t("pricing.plans", { returnObjects: true, defaultValue: [] }) as unknown as Plan[];
  return (
    <div className="pricing-page">
      <PageMeta title={t("pricing.title")} description={t("pricing.description")} />
      <header className="site-header container">
        <Brand />
        <LanguageSwitcher />
      </header>
      <main className="container">
        <hgroup>
          <h1>{t("pricing.title")}</h1>
          <p>{t("pricing.lead")}</p>
        </hgroup>
        <div className="plan-grid">
          {Array.isArray(plans)
            ? plans.map((plan) => (
                <article key={plan.id} className="plan" data-plan={plan.id}>
                  <header>
                    <h2>{plan.name}</h2>
                    <p className="plan-price">{plan.price}</p>
                  </header>
                  <p>{plan.summary}</p>
                  <ul>
                    {plan.features.map((f) => (
                      <li key={f}>{f}</li>
                    ))}
                  </ul>
                  <footer>
                    <Link to={to(plan.id === "clinic" ? "/contact" : "/signup")} role="button">
                      {plan.id === "clinic" ? t("pricing.contactSales") : t("pricing.choose")}
                    </Link>
                  </footer>
                </article>
              ))
            : null}
        </div>
        <p className="pricing-note">{t("pricing.note")}</p>
      </main>
      <SiteFooter />
    </div>
  );
}
