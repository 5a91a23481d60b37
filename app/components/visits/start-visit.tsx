import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { PatientSummary } from "#app/services/patients/patients.server.ts";
import type { VisitSummary } from "#app/services/visits/visits.server.ts";
import { formatCalendarDate } from "#app/utils/zoned-time.ts";

/** Start a visit (existing or new patient, language, the patient's consent) and reopen recent ones. */
export function StartVisit({ patients, visits, error }: { patients: PatientSummary[]; visits: VisitSummary[]; error?: string }) {
  const { t } = useTranslation("app");
  const to = useLocalizedPath();
  const locale = useLocale();
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <article>
        <h2>{t("visits.start.heading")}</h2>
        <Form method="post" data-testid="start-visit">
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
          <label>
            <input type="checkbox" name="consent" required />
            {t("visits.start.consent")}
          </label>
          {error ? (
            <p role="alert" className="form-failure" data-code={error}>
              {t(`visits.errors.${error}`, { defaultValue: t("visits.errors.failed") })}
            </p>
          ) : null}
          <button type="submit" aria-busy={busy || undefined} disabled={busy}>
            {t("visits.start.submit")}
          </button>
        </Form>
      </article>
      {visits.length > 0 ? (
        <section>
          <h2>{t("visits.recent")}</h2>
          <ul data-testid="recent-visits">
            {visits.map((v) => (
              <li key={v.id}>
                <Link to={`${to("/transcribing")}?visit_id=${v.id}`}>
                  {v.patient_name}
                  {v.title ? ` — ${v.title}` : ""}
                </Link>{" "}
                {/* Issue 12: the clinical day, which citations and date filters use. */}
                <small>{v.visit_date ? `${formatCalendarDate(v.visit_date, locale)} · ` : ""}</small>
                <small>{t(`visits.status.${v.status}`)}</small>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
