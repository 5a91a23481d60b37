import { useTranslation } from "react-i18next";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { TrialStatus } from "#app/services/billing/trial.ts";

/** A date in the organisation's time zone, so the server and the browser print the same text. */
function formatDate(iso: string, locale: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(iso));
  }
}

/** The trial's end (and days left) on the billing page; nothing once on a paid plan. */
export function TrialDates({ trial, timezone }: { trial: TrialStatus; timezone: string }) {
  const { t } = useTranslation("billing");
  const locale = useLocale();
  if (trial.state === "active") {
    return (
      <p data-trial="active">
        {t("page.trialEndsOn", { date: formatDate(trial.endsAt, locale, timezone) })}{" "}
        <span data-testid="trial-days-left">{t("page.daysLeft", { days: trial.daysLeft })}</span>
      </p>
    );
  }
  if (trial.state === "ended") {
    return (
      <p data-trial="ended">
        {trial.endsAt ? `${t("page.trialEndedOn", { date: formatDate(trial.endsAt, locale, timezone) })} ` : null}
        {t("page.trialEnded")}
      </p>
    );
  }
  return null;
}
