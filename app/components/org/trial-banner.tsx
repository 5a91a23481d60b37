import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { trialStatus } from "#app/services/billing/trial.ts";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";

/**
 * Issue 4 "Plans and trial": once the trial has ended, a banner asks to choose a plan (owners get
 * the way there, others are told to ask an owner); while it runs, a quiet count of the days left.
 * Server-rendered from the organisation, so it shows without JavaScript.
 */
export function TrialBanner({ org }: { org: Pick<MemberOrg, "name" | "plan" | "trial_ends_at" | "role"> }) {
  const { t } = useTranslation("billing");
  const to = useLocalizedPath();
  const status = trialStatus(org, new Date());
  if (status.state === "ended") {
    return (
      <article className="trial-banner" data-testid="trial-ended-banner">
        <p>
          <strong>{t("banners.trial.ended", { org: org.name })}</strong>
        </p>
        {org.role === "owner" ? (
          <Link to={to("/settings/billing")} role="button" data-testid="trial-choose-plan">
            {t("banners.trial.choosePlan")}
          </Link>
        ) : (
          <p>{t("banners.trial.askOwner")}</p>
        )}
      </article>
    );
  }
  if (status.state === "active") {
    return (
      <p className="trial-notice" data-testid="trial-days-left">
        {/* The count is computed from the clock on both sides; across a day boundary they may differ by one. */}
        <small suppressHydrationWarning>{t("banners.trial.daysLeft", { days: status.daysLeft })}</small>{" "}
        <small>
          <Link to={to("/settings/billing")}>{t("banners.trial.seePlans")}</Link>
        </small>
      </p>
    );
  }
  return null;
}
