import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { OrgPlan } from "#app/db/schema.ts";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";

/** The plan, read-only here: changes happen on Settings → Plan & billing. */
export function OrganizationPlan({ plan, trialEnds }: { plan: OrgPlan; trialEnds: string | null }) {
  const { t } = useTranslation("orgSettings");
  const to = useLocalizedPath();
  return (
    <article aria-labelledby="org-plan-heading">
      <h3 id="org-plan-heading">{t("organization.plan")}</h3>
      <p data-plan={plan}>
        <strong>{t(`plans.${plan}`)}</strong>
        {trialEnds ? ` · ${t("organization.trialEnds", { date: trialEnds })}` : null}
      </p>
      <Link to={to("/settings/billing")}>{t("organization.planLink")}</Link>
    </article>
  );
}
