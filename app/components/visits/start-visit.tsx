import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { PatientSummary } from "#app/services/patients/patients.server.ts";
import type { VisitSummary } from "#app/services/visits/visits.server.ts";
import { formatCalendarDate } from "#app/utils/zoned-time.ts";
import { StatusBadge } from "../ui/badge.tsx";
import { Icon } from "../ui/icons.tsx";
import { EmptyState, Section, SplitView } from "../ui/page.tsx";
import { VisitTemplateField } from "./visit-template-field.tsx";

/** Start a visit (existing or new patient, language, the patient's consent) and reopen recent ones. */
export function StartVisit({ patients, visits, error }: { patients: PatientSummary[]; visits: VisitSummary[]; error?: string }) {
  const { t } = useTranslation("app");
  const { t: tUi } = useTranslation("ui");
  const to = useLocalizedPath();
  const locale = useLocale();
  const busy = useNavigation().state === "submitting";
  return (
    <SplitView
      ratio="2:1"
      primary={
        <Section id="start-visit" title={t("visits.start.heading")}>
          <Form method="post" data-testid="start-visit" className="ui-form">
            {patients.length > 0 ? (
              <label>
                {t("visits.start.patient")}
                <select name="patient_id" defaultValue="">
                  <option value="">{t("visits.start.newPatientOption")}</option>
                  {patients.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.display_name}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <label>
              {t("visits.start.newPatient")}
              <input name="new_patient_name" maxLength={200} autoComplete="off" />
            </label>
            <label>
              {t("visits.start.title")}
              <input name="title" maxLength={200} />
            </label>
            <label>
              {t("visits.start.language")}
              <select name="language" defaultValue="en">
                {(["en", "fr", "es"] as const).map((lng) => (
                  <option key={lng} value={lng}>
                    {t(`visits.languages.${lng}`)}
                  </option>
                ))}
              </select>
            </label>
            <VisitTemplateField id="start-visit-template" />
            <label>
              <input type="checkbox" name="consent" required />
              {t("visits.start.consent")}
            </label>
            {error ? (
              <p role="alert" className="form-failure" data-code={error}>
                {t(`visits.errors.${error}`, { defaultValue: t("visits.errors.failed") })}
              </p>
            ) : null}
            <div className="ui-form-actions">
              <button type="submit" className="ui-button" aria-busy={busy || undefined} disabled={busy}>
                <Icon name="mic" size={16} />
                {t("visits.start.submit")}
              </button>
            </div>
          </Form>
        </Section>
      }
      secondary={
        <Section id="recent-visits" title={t("visits.recent")} flush={visits.length > 0}>
          {visits.length > 0 ? (
            <ul data-testid="recent-visits" className="ui-list">
              {visits.map((v) => (
                <li key={v.id}>
                  <Link to={`${to("/transcribing")}?visit_id=${v.id}`} className="ui-truncate">
                    {v.patient_name}
                    {v.title ? ` — ${v.title}` : ""}
                  </Link>{" "}
                  {/* Issue 12: the clinical day, which citations and date filters use. */}
                  {v.visit_date ? <small>{formatCalendarDate(v.visit_date, locale)}</small> : null}{" "}
                  <StatusBadge tone={v.status === "transcribed" ? "success" : v.status === "failed" ? "danger" : "neutral"}>
                    {t(`visits.status.${v.status}`)}
                  </StatusBadge>
                </li>
              ))}
            </ul>
          ) : (
            // What this page is for, before the first visit.
            <EmptyState icon="mic" title={tUi("transcribing.emptyTitle")} testId="visits-empty">
              <p>{tUi("transcribing.emptyBody")}</p>
            </EmptyState>
          )}
        </Section>
      }
    />
  );
}
