import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Section } from "#app/components/ui/page.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { PlanBlock } from "#app/services/dashboard/dashboard.server.ts";

export function PlanPanel({ plan }: { plan: PlanBlock }) {
  const { t } = useTranslation("dashboard");
  const { t: tSettings } = useTranslation("orgSettings");
  const to = useLocalizedPath();
  const of = (used: number, allowed: number | null) =>
    allowed === null ? t("plan.unlimited", { used }) : t("plan.of", { used, allowed });
  return (
    <Section
      id="plan"
      title={t("plan.heading")}
      actions={<Link to={to("/settings/billing")}>{t("plan.billing")}</Link>}
      testId="dashboard-plan"
    >
      <dl className="dash-stats">
        <div>
          <dt>{t("plan.plan")}</dt>
          <dd>{tSettings(`plans.${plan.plan}`)}</dd>
        </div>
        <div>
          <dt>{t("plan.trialDaysLeft")}</dt>
          <dd>{plan.trial_days_left ?? t("plan.notOnTrial")}</dd>
        </div>
        <div>
          <dt>{t("plan.seats")}</dt>
          <dd>{of(plan.seats_used, plan.seats_allowed)}</dd>
        </div>
        <div>
          <dt>{t("plan.visitsThisMonth")}</dt>
          <dd>{of(plan.visits_this_month, plan.visit_limit)}</dd>
        </div>
      </dl>
    </Section>
  );
}
