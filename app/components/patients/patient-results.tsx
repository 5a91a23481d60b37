import { useTranslation } from "react-i18next";
import { Form, Link, useLocation } from "react-router";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { ListPage, PatientListItem } from "#app/services/patients/directory.server.ts";
import { formatCalendarDate } from "#app/utils/zoned-time.ts";
import { Pagination } from "./pagination.tsx";
import { VisitList } from "./visit-list.tsx";

/** The search box (a GET form, so it works without JavaScript) and the patients it found. */
export function PatientResults({
  q,
  patients,
  created,
  timeZone,
}: {
  q: string;
  patients: ListPage<PatientListItem>;
  created: string | null;
  timeZone: string;
}) {
  const { t } = useTranslation("patients");
  const locale = useLocale();
  const { pathname } = useLocation();
  const count = patients.items.length;
  const summary = q
    ? count === 0
      ? t("search.empty", { q })
      : patients.has_more
        ? t("search.results_more", { count, q })
        : t("search.results", { count, q })
    : count === 0
      ? t("search.none")
      : t("search.recent");
  return (
    <section aria-labelledby="patients-heading" className="patients-section">
      <h2 id="patients-heading">{t("search.heading")}</h2>
      <Form method="get" role="search" className="patient-search">
        <input
          type="search"
          name="q"
          defaultValue={q}
          key={q}
          maxLength={200}
          aria-label={t("search.label")}
          placeholder={t("search.placeholder")}
          autoComplete="off"
        />
        <button type="submit">{t("search.submit")}</button>
        {q ? (
          <Link to={pathname} className="secondary">
            {t("search.clear")}
          </Link>
        ) : null}
      </Form>
      <p role="status" data-testid="patient-search-summary">
        {summary}
      </p>
      <ul className="patient-list" data-testid="patient-results">
        {patients.items.map((p) => (
          <li key={p.id} data-patient-id={p.id} aria-current={p.id === created ? "true" : undefined}>
            <strong>{p.display_name}</strong>
            {p.id === created ? <small role="status"> {t("patient.created")}</small> : null}
            <div className="patient-meta">
              {p.date_of_birth ? <span>{t("patient.born", { date: formatCalendarDate(p.date_of_birth, locale) })}</span> : null}
              {p.sex ? <span>{t(`patient.sex.${p.sex}`)}</span> : null}
              {p.external_id ? <span>{t("patient.externalId", { id: p.external_id })}</span> : null}
            </div>
            {p.latest_visits.length > 0 ? (
              <details>
                <summary>
                  {t("patient.latestVisits")} ({p.latest_visits.length})
                </summary>
                <VisitList visits={p.latest_visits} timeZone={timeZone} showPatient={false} />
              </details>
            ) : (
              <small className="patient-no-visits">{t("patient.noVisits")}</small>
            )}
          </li>
        ))}
      </ul>
      <Pagination param="page" page={patients.page} hasMore={patients.has_more} />
    </section>
  );
}
