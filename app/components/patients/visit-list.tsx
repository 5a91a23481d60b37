import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { VisitListItem } from "#app/services/patients/directory.server.ts";
import { formatDate } from "#app/utils/zoned-time.ts";
import { VisitBadges } from "./visit-badges.tsx";

/** Visits as a list of links to `/transcribing?visit_id=`, with who, when, language and state. */
export function VisitList({
  visits,
  timeZone,
  showPatient = true,
  testId,
}: {
  visits: VisitListItem[];
  timeZone: string;
  showPatient?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation("patients");
  const to = useLocalizedPath();
  const locale = useLocale();
  return (
    <ul className="visit-list" data-testid={testId}>
      {visits.map((v) => (
        <li key={v.id} data-visit-id={v.id}>
          <Link to={`${to("/transcribing")}?visit_id=${v.id}`}>
            {v.title || t("visits.untitled")}
            {showPatient ? ` — ${v.patient_name}` : ""}
          </Link>
          <div className="visit-meta">
            <time dateTime={v.created_at}>{formatDate(v.created_at, locale, timeZone)}</time>
            <span>{v.clinician_name ? t("visits.clinician", { name: v.clinician_name }) : t("visits.noClinician")}</span>
            <span>{t("visits.language", { language: t(`visits.languages.${v.language}`) })}</span>
            <VisitBadges visit={v} />
          </div>
        </li>
      ))}
    </ul>
  );
}
