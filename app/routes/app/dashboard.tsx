import { useTranslation } from "react-i18next";
import { data, Link, redirect } from "react-router";
import { DashboardFigures, DashboardToday } from "#app/components/dashboard/overview.tsx";
import { NoteList } from "#app/components/notes/note-list.tsx";
import { FirstRunChecklist, SAMPLE_VISIT_INTENT } from "#app/components/onboarding/first-run-checklist.tsx";
import { PageMeta } from "#app/components/page-meta.tsx";
import { NewPatientForm } from "#app/components/patients/new-patient-form.tsx";
import { Pagination } from "#app/components/patients/pagination.tsx";
import { PatientResults } from "#app/components/patients/patient-results.tsx";
import { VisitList } from "#app/components/patients/visit-list.tsx";
import { Icon } from "#app/components/ui/icons.tsx";
import { Page, Section } from "#app/components/ui/page.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { loadDashboardFigures } from "#app/services/dashboard/page.server.ts";
import { getFirstRunProgress } from "#app/services/onboarding/first-run.server.ts";
import { startSampleVisitFromPage } from "#app/services/onboarding/sample-visit-page.server.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { orgPageArgs } from "#app/services/org-context/page-args.server.ts";
import { createPatientFromPage, loadDashboard } from "#app/services/patients/dashboard-page.server.ts";
import { assertValidPage } from "#app/services/session/page-validity.server.ts";
import figuresCss from "#app/styles/dashboard.css?url";
import dashboardCss from "#app/styles/patients.css?url";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import { todayInZone } from "#app/utils/zoned-time.ts";
import type { Route } from "./+types/dashboard";
import { DashboardQuerySchema, newPatientFormSchema } from "./dashboard-schema.ts";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: dashboardCss },
  { rel: "stylesheet", href: figuresCss },
];

const FORM_FIELDS = ["display_name", "date_of_birth", "sex", "external_id", "notes"] as const;

// Issue 5 "Pages to list, search and open them": search the organisation's patients (?q=), see
// their latest visits and the recent visits, add a patient, and open a visit on /transcribing.
// Signed-in user and current organisation come from the app layout's middleware (requireOrg).
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const query = DashboardQuerySchema.safeParse({
    q: url.searchParams.get("q") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
    visits_page: url.searchParams.get("visits_page") ?? undefined,
  });
  assertValidPage(query.success);
  const { q, page, visits_page } = query.data ?? DashboardQuerySchema.parse({});
  const dashboard = await loadDashboard(context, request, { q: q.trim(), page, visitsPage: visits_page });
  const created = url.searchParams.get("created");
  const openNew = url.searchParams.get("new") === "1";
  // Issue 11 "First run": the checklist, for those who see patients (admins get the notice instead).
  const firstRun = dashboard.kind === "dashboard" ? await getFirstRunProgress(orgPageArgs(context, request)) : null;
  // Issue 16: today, work queues, figures and plan. A range or clinician that cannot be used shows
  // the default view with a translated message, answered 400.
  const figures = await loadDashboardFigures(context, request, url.searchParams);
  const body = {
    ...dashboard,
    selfId: requireOrg(context).user.id,
    timeZone: requireOrg(context).org.timezone || "UTC",
    created,
    openNew,
    firstRun,
    ...figures,
  };
  return figures.error ? data(body, { status: 400 }) : body;
}

export async function action({ context, request }: Route.ActionArgs) {
  const { org } = requireOrg(context);
  const form = await readForm(request);
  if (form.get("intent") === SAMPLE_VISIT_INTENT) return sampleVisitAction(context, request);
  const values: Record<string, string> = {};
  for (const field of FORM_FIELDS) {
    const value = form.get(field);
    if (typeof value === "string") values[field] = value.slice(0, 10_000);
  }
  const parsed = newPatientFormSchema(todayInZone(org.timezone)).safeParse(values);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "";
    return data({ error: /^[a-z_]{1,60}$/.test(message) ? message : "invalid_input", values }, { status: 400 });
  }
  let id: string;
  try {
    ({ id } = await createPatientFromPage(context, request, parsed.data));
  } catch (error) {
    if (isAppError(error) && error.status < 500) return data({ error: error.code, values }, { status: error.status });
    throw error;
  }
  // Redirect-after-post to the new patient, found by name, so a reload never posts twice.
  const path = localizePath("/dashboard", localeFromPath(pageUrl(request).pathname));
  const params = new URLSearchParams({ q: parsed.data.display_name, created: id });
  throw redirect(`${path}?${params}`);
}

// Issue 11 "First run": "Try a sample visit" → the bundled conversation uploaded as a new visit
// of the sample patient, then the visit's page, where its transcript arrives like any other.
async function sampleVisitAction(context: Route.ActionArgs["context"], request: Request) {
  let visitId: string;
  try {
    ({ visitId } = await startSampleVisitFromPage(context, request));
  } catch (error) {
    if (isAppError(error) && error.status < 500) return data({ sampleError: error.code }, { status: error.status });
    throw error;
  }
  const path = localizePath("/transcribing", localeFromPath(pageUrl(request).pathname));
  throw redirect(`${path}?visit_id=${visitId}`);
}

function RecentVisits({ loaderData }: { loaderData: Extract<Route.ComponentProps["loaderData"], { kind: "dashboard" }> }) {
  const { t } = useTranslation("patients");
  const { visits } = loaderData;
  return (
    <section aria-labelledby="recent-visits-heading">
      <h2 id="recent-visits-heading">{t("visits.heading")}</h2>
      {visits.items.length === 0 ? <p>{t("visits.empty")}</p> : null}
      <VisitList visits={visits.items} timeZone={loaderData.timeZone} testId="dashboard-visits" />
      <Pagination param="visits_page" page={visits.page} hasMore={visits.has_more} />
    </section>
  );
}

function DashboardActions() {
  const { t } = useTranslation("patients");
  const { t: tApp } = useTranslation("app");
  const to = useLocalizedPath();
  return (
    <>
      <Link to={to("/dashboard?new=1#new-patient")} className="ui-button" data-variant="secondary">
        <Icon name="plus" size={16} />
        {tApp("dashboardPage.addPatient")}
      </Link>
      <Link to={to("/transcribing")} className="ui-button" data-testid="start-visit-link">
        <Icon name="mic" size={16} />
        {t("actions.startVisit")}
      </Link>
    </>
  );
}

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("patients");
  const { t: tApp } = useTranslation("app");
  if (loaderData.kind === "forbidden") {
    return (
      <Page title={tApp("dashboard.title")} description={tApp("dashboard.intro")}>
        <PageMeta title={tApp("dashboard.title")} />
        <Section>
          <p role="note">{t("forbidden.message")}</p>
        </Section>
        <DashboardToday page={loaderData} />
        <DashboardFigures page={loaderData} selfId={loaderData.selfId} />
      </Page>
    );
  }
  return (
    <Page title={tApp("dashboard.title")} description={tApp("dashboard.intro")} actions={<DashboardActions />}>
      <PageMeta title={tApp("dashboard.title")} />
      {loaderData.firstRun ? (
        <FirstRunChecklist
          progress={loaderData.firstRun}
          sampleError={actionData && "sampleError" in actionData ? actionData.sampleError : null}
        />
      ) : null}
      <DashboardToday page={loaderData} />
      <div className="dashboard ui-split" data-ratio="2:1">
        <div className="ui-split-pane">
          <Section id="patient-search">
            <PatientResults
              q={loaderData.q}
              patients={loaderData.patients}
              created={loaderData.created}
              timeZone={loaderData.timeZone}
            />
            <NewPatientForm
              failure={actionData && "error" in actionData ? actionData : undefined}
              created={loaderData.created}
              initiallyOpen={loaderData.openNew}
            />
          </Section>
        </div>
        <div className="ui-split-pane">
          {loaderData.drafts ? (
            <Section>
              <NoteList notes={loaderData.drafts} timeZone={loaderData.timeZone} variant="drafts" />
            </Section>
          ) : null}
          <Section>
            <RecentVisits loaderData={loaderData} />
          </Section>
        </div>
      </div>
      <DashboardFigures page={loaderData} selfId={loaderData.selfId} />
    </Page>
  );
}
