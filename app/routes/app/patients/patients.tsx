import { useTranslation } from "react-i18next";
import { Form, Link, useLocation } from "react-router";
import { PageMeta } from "#app/components/page-meta.tsx";
import { StatusBadge } from "#app/components/ui/badge.tsx";
import { type Column, DataTable } from "#app/components/ui/data-table.tsx";
import { Icon } from "#app/components/ui/icons.tsx";
import { EmptyState, Page, Section } from "#app/components/ui/page.tsx";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { PatientTableRow } from "#app/services/patients/patient-table.server.ts";
import { loadPatientsPage } from "#app/services/patients/patients-page.server.ts";
import { assertValidPage } from "#app/services/session/page-validity.server.ts";
import patientsCss from "#app/styles/patients.css?url";
import { pageUrl } from "#app/utils/page-url.ts";
import { formatCalendarDate } from "#app/utils/zoned-time.ts";
import type { Route } from "./+types/patients";
import { PatientTableQuerySchema } from "./patients-schema.ts";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: patientsCss }];

// Issue 29 "Patients": the organisation's patients as a table — sorted, searched and paginated by
// the server through links and a GET form, so all of it works without JavaScript.
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const query = PatientTableQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  assertValidPage(query.success);
  const input = query.data ?? PatientTableQuerySchema.parse({});
  return loadPatientsPage(context, request, { ...input, q: input.q.trim() });
}

type Loaded = Extract<Route.ComponentProps["loaderData"], { kind: "table" }>;

function useTableHref(loaded: Loaded) {
  const { pathname } = useLocation();
  return (next: { sort?: string; dir?: string; page?: number }) => {
    const params = new URLSearchParams();
    if (loaded.q) params.set("q", loaded.q);
    const sort = next.sort ?? loaded.sort;
    const dir = next.dir ?? loaded.dir;
    if (sort !== "name") params.set("sort", sort);
    if (dir !== "asc") params.set("dir", dir);
    if (next.page && next.page > 1) params.set("page", String(next.page));
    const query = params.toString();
    return `${pathname}${query ? `?${query}` : ""}`;
  };
}

function PatientTable({ loaded }: { loaded: Loaded }) {
  const { t } = useTranslation("patients");
  const locale = useLocale();
  const to = useLocalizedPath();
  const href = useTableHref(loaded);
  const day = (value: string | null) => (value ? formatCalendarDate(value, locale) : <span className="ui-muted">—</span>);
  const columns: Column<PatientTableRow>[] = [
    {
      key: "name",
      header: t("table.columns.name"),
      sortable: true,
      cell: (p) => (
        <Link to={to(`/patients/${p.id}`)} data-testid="patient-link">
          {p.display_name}
        </Link>
      ),
    },
    { key: "date_of_birth", header: t("table.columns.dateOfBirth"), sortable: true, cell: (p) => day(p.date_of_birth) },
    {
      key: "external_id",
      header: t("table.columns.externalId"),
      sortable: true,
      cell: (p) => p.external_id ?? <span className="ui-muted">—</span>,
    },
    { key: "last_visit", header: t("table.columns.lastVisit"), sortable: true, cell: (p) => day(p.last_visit) },
  ];
  if (loaded.canSeeDrafts) {
    columns.push({
      key: "open_drafts",
      header: t("table.columns.openDrafts"),
      sortable: true,
      align: "end",
      cell: (p) =>
        p.open_drafts ? (
          <StatusBadge tone="warning">{t("table.drafts", { count: p.open_drafts })}</StatusBadge>
        ) : (
          <span className="ui-muted">0</span>
        ),
    });
  }
  return (
    <DataTable
      caption={t("table.caption")}
      columns={columns}
      rows={loaded.rows}
      rowKey={(p) => p.id}
      sort={{ key: loaded.sort, dir: loaded.dir }}
      sortHref={(next) => href({ sort: next.key, dir: next.dir })}
      pagination={{ page: loaded.page, pageCount: loaded.pageCount, href: (page) => href({ page }) }}
      labels={{
        previous: t("pagination.previous"),
        next: t("pagination.next"),
        page: (page, count) => t("table.pageOf", { page, count }),
      }}
      empty={
        <EmptyState
          icon="users"
          title={loaded.q ? t("search.empty", { q: loaded.q }) : t("table.emptyTitle")}
          testId="patients-empty"
        >
          <p>{t("table.emptyBody")}</p>
        </EmptyState>
      }
    />
  );
}

function Search({ loaded }: { loaded: Loaded }) {
  const { t } = useTranslation("patients");
  const { pathname } = useLocation();
  return (
    <Form method="get" role="search" className="patient-search">
      <input
        type="search"
        name="q"
        defaultValue={loaded.q}
        key={loaded.q}
        maxLength={200}
        aria-label={t("search.label")}
        placeholder={t("search.placeholder")}
        autoComplete="off"
      />
      {loaded.sort !== "name" ? <input type="hidden" name="sort" value={loaded.sort} /> : null}
      {loaded.dir !== "asc" ? <input type="hidden" name="dir" value={loaded.dir} /> : null}
      <button type="submit" className="ui-button" data-variant="secondary">
        {t("search.submit")}
      </button>
      {loaded.q ? (
        <Link to={pathname} className="ui-button" data-variant="ghost">
          {t("search.clear")}
        </Link>
      ) : null}
    </Form>
  );
}

export default function Patients({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("patients");
  const to = useLocalizedPath();
  const title = t("table.title");
  if (loaderData.kind === "forbidden") {
    return (
      <Page title={title} description={t("table.intro")}>
        <PageMeta title={title} />
        <p role="note">{t("forbidden.message")}</p>
      </Page>
    );
  }
  return (
    <Page
      title={title}
      description={t("table.intro")}
      actions={
        <Link to={to("/dashboard?new=1#new-patient")} className="ui-button">
          <Icon name="plus" size={16} />
          {t("table.addPatient")}
        </Link>
      }
    >
      <PageMeta title={title} />
      <Section>
        <div className="patients-table-toolbar">
          <Search loaded={loaderData} />
          <p role="status" data-testid="patients-count">
            {t("table.count", { count: loaderData.total })}
          </p>
        </div>
        <PatientTable loaded={loaderData} />
      </Section>
    </Page>
  );
}
