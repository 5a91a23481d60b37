import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { OrgPlan } from "#app/db/schema.ts";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { StatusBadge } from "../ui/badge.tsx";
import { Section } from "../ui/page.tsx";

/** The plan, read-only here: changes happen on Settings → Plan & billing. */
export function OrganizationPlan({ plan, trialEnds }: { plan: OrgPlan; trialEnds: string | null }) {
  const { t } = useTranslation("orgSettings");
  const to = useLocalizedPath();
  return (
    <Section
      id="org-plan"
      title={t("organization.plan")}
      actions={
        <Link to={to("/settings/billing")} className="ui-button" data-variant="secondary">
          {t("organization.planLink")}
        </Link>
      }
    >
      <p data-plan={plan} className="org-plan-line">
        <StatusBadge tone={plan === "trial" ? "warning" : "info"}>{t(`plans.${plan}`)}</StatusBadge>
        {trialEnds ? <span>{t("organization.trialEnds", { date: trialEnds })}</span> : null}
      </p>
    </Section>
  );
}
