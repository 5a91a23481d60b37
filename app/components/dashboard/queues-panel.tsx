import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Section } from "#app/components/ui/page.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { DashboardData } from "#app/services/dashboard/dashboard.server.ts";
import { formatDuration } from "./duration.ts";

/**
 * What waits for someone: drafts to sign and coding cases open (oldest first, with their age), failed
 * transcriptions, invitations.
 */
export function QueuesPanel({ queues, now }: { queues: DashboardData["queues"]; now: string }) {
  const { t } = useTranslation("dashboard");
  const to = useLocalizedPath();
  const age = (since: string) => formatDuration((Date.parse(now) - Date.parse(since)) / 1000, t);
  return (
    <Section id="queues" title={t("queues.heading")} testId="dashboard-queues">
      <div className="dash-queues">
        {queues.drafts_to_sign ? (
          <div data-queue="drafts">
            <h3>
              {t("queues.drafts")} <span className="dash-count">{queues.drafts_to_sign.count}</span>
            </h3>
            {queues.drafts_to_sign.count === 0 ? <p>{t("queues.draftsEmpty")}</p> : null}
            <ul className="dash-list">
              {queues.drafts_to_sign.oldest.map((d) => (
                <li key={d.note_id}>
                  <Link to={`${to("/coding")}?id=${d.note_id}`}>{d.patient_name}</Link>
                  <span className="dash-meta">{t("queues.age", { age: age(d.since) })}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {queues.coding_open ? (
          <div data-queue="coding">
            <h3>
              {t("queues.coding")} <span className="dash-count">{queues.coding_open.count}</span>
            </h3>
            {queues.coding_open.count === 0 ? <p>{t("queues.codingEmpty")}</p> : null}
            <ul className="dash-list">
              {queues.coding_open.oldest.map((c) => (
                <li key={c.case_id}>
                  {/* A coding case is worked on beside its note, in the note editor (issue 13). */}
                  <Link to={`${to("/coding")}?id=${c.note_id}`}>{c.patient_name}</Link>
                  <span className="dash-meta">{t("queues.age", { age: age(c.since) })}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {queues.failed_transcriptions ? (
          <div data-queue="failed">
            <h3>
              {t("queues.failed")} <span className="dash-count">{queues.failed_transcriptions.count}</span>
            </h3>
            {queues.failed_transcriptions.count === 0 ? <p>{t("queues.failedEmpty")}</p> : null}
            <ul className="dash-list">
              {queues.failed_transcriptions.oldest.map((f) => (
                <li key={f.visit_id}>
                  <Link to={`${to("/transcribing")}?visit_id=${f.visit_id}`}>
                    {f.title ? `${f.title} — ${f.patient_name}` : f.patient_name}
                  </Link>
                  <span className="dash-meta">{t("queues.age", { age: age(f.since) })}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {queues.invitations_pending !== null ? (
          <div data-queue="invitations">
            <h3>
              {t("queues.invitations")} <span className="dash-count">{queues.invitations_pending}</span>
            </h3>
            <Link to={to("/settings/invitations")}>{t("queues.invitationsLink")}</Link>
          </div>
        ) : null}
      </div>
    </Section>
  );
}
