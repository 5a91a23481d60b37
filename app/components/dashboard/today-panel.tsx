import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { StatusBadge, type Tone } from "#app/components/ui/badge.tsx";
import { Section } from "#app/components/ui/page.tsx";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { DashboardData } from "#app/services/dashboard/dashboard.server.ts";
import { TODAY_STATUSES, type TodayStatus } from "#app/services/dashboard/stages.ts";
import { formatCalendarDate, formatInZone } from "#app/utils/zoned-time.ts";

const TONES: Record<TodayStatus, Tone> = {
  recording: "info",
  transcribing: "info",
  ready_for_note: "warning",
  draft_to_sign: "warning",
  signed: "success",
  coded: "success",
  failed: "danger",
};

/** Today's visits by stage, then each visit one click from its page. */
export function TodayPanel({
  today,
  notes,
}: {
  today: NonNullable<DashboardData["today"]> & { timezone: string };
  notes: boolean;
}) {
  const { t } = useTranslation("dashboard");
  const locale = useLocale();
  const to = useLocalizedPath();
  return (
    <Section
      id="today"
      title={t("today.heading")}
      description={t("today.description", { date: formatCalendarDate(today.date, locale, "long") })}
      testId="dashboard-today"
    >
      <dl className="dash-stats">
        {TODAY_STATUSES.map((status) => (
          <div key={status} data-status={status}>
            <dt>{t(`today.status.${status}`)}</dt>
            <dd>{today.by_status[status]}</dd>
          </div>
        ))}
      </dl>
      {notes ? null : <p className="dash-note">{t("today.notesHidden")}</p>}
      {today.visits.length === 0 ? (
        <p>{t("today.empty")}</p>
      ) : (
        <ul className="dash-list" aria-label={t("today.listLabel")}>
          {today.visits.map((v) => (
            <li key={v.id}>
              <Link to={`${to("/transcribing")}?visit_id=${v.id}`}>
                {v.title || t("today.untitled")} — {v.patient_name}
              </Link>
              <span className="dash-meta">
                <time dateTime={v.created_at}>{formatInZone(v.created_at, locale, today.timezone, { timeStyle: "short" })}</time>
                <StatusBadge tone={TONES[v.stage]}>{t(`today.status.${v.stage}`)}</StatusBadge>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
