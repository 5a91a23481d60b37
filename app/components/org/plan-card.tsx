import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { OrgPlan } from "#app/db/schema.ts";
import { useLocale } from "#app/i18n/use-locale.ts";
import { PLAN_CATALOGUE, TRIAL_DAYS } from "#app/services/billing/plans.ts";

/** A plan's price line: numbers from the catalogue, words from marketing.json "pricing". */
export function usePlanPrice(): (plan: OrgPlan) => string {
  const { t } = useTranslation("marketing");
  const locale = useLocale();
  return (plan) => {
    const price = PLAN_CATALOGUE[plan].monthlyPriceUsd;
    if (price === null) return t("pricing.price.custom");
    if (price === 0) return t("pricing.price.free", { days: TRIAL_DAYS });
    const amount = new Intl.NumberFormat(locale, { style: "currency", currency: "USD", maximumFractionDigits: 0 }).format(price);
    return t("pricing.price.monthly", { price: amount });
  };
}

/** What a plan includes (members, visits a month, features), for /pricing and the billing page. */
export function PlanCard({
  plan,
  heading: Heading = "h2",
  badge,
  children,
}: {
  plan: OrgPlan;
  heading?: "h2" | "h3";
  badge?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation("marketing");
  const locale = useLocale();
  const price = usePlanPrice();
  const def = PLAN_CATALOGUE[plan];
  const number = (n: number) => new Intl.NumberFormat(locale).format(n);
  const members =
    def.maxMembers === null
      ? t("pricing.limits.membersUnlimited")
      : t(def.maxMembers === 1 ? "pricing.limits.membersOne" : "pricing.limits.membersUpTo", { members: number(def.maxMembers) });
  const visits =
    def.visitsPerMonth === null
      ? t("pricing.limits.visitsUnlimited")
      : t("pricing.limits.visits", { visits: number(def.visitsPerMonth) });
  return (
    <article className="plan" data-plan={plan}>
      <header>
        <Heading>{t(`pricing.plans.${plan}.name`)}</Heading>
        {badge}
        <p className="plan-price">{price(plan)}</p>
      </header>
      <p>{t(`pricing.plans.${plan}.summary`)}</p>
      <ul>
        {def.includes ? <li>{t("pricing.limits.includes", { plan: t(`pricing.plans.${def.includes}.name`) })}</li> : null}
        <li data-limit="members">{members}</li>
        <li data-limit="visits">{visits}</li>
        {def.features.map((feature) => (
          <li key={feature}>{t(`pricing.features.${feature}`)}</li>
        ))}
      </ul>
      {children ? <footer>{children}</footer> : null}
    </article>
  );
}
