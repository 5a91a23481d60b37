import { useTranslation } from "react-i18next";
import type { VisitListItem } from "#app/services/patients/directory.server.ts";

/** The visit's status and where its transcription stands, as two small badges. */
export function VisitBadges({ visit }: { visit: Pick<VisitListItem, "status" | "transcription"> }) {
  const { t } = useTranslation("patients");
  const { state, progress, failure_code } = visit.transcription;
  const transcription =
    state === "running" && progress !== null
      ? t("visits.transcription.running_progress", { percent: Math.round(progress * 100) })
      : state === "failed" && failure_code
        ? t("visits.transcription.failed_code", { code: failure_code })
        : t(`visits.transcription.${state}`);
  return (
    <span className="visit-badges">
      <mark className="badge" data-status={visit.status}>
        {t(`visits.status.${visit.status}`)}
      </mark>{" "}
      <small className="badge-note" data-transcription={state}>
        {transcription}
      </small>
    </span>
  );
}
