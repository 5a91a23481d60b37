import { useTranslation } from "react-i18next";
import { data, Link, useSearchParams } from "react-router";
import { FirstRunChecklist } from "#app/components/onboarding/first-run-checklist.tsx";
import { OrgSwitcher } from "#app/components/org/org-switcher.tsx";
import { PageMeta } from "#app/components/page-meta.tsx";
import { LanguageMenu } from "#app/components/shell/language-menu.tsx";
import { UserMenu } from "#app/components/shell/user-menu.tsx";
import { StatusBadge, type Tone } from "#app/components/ui/badge.tsx";
import { DataTable, type SortState } from "#app/components/ui/data-table.tsx";
import { FormField } from "#app/components/ui/form-field.tsx";
import { EmptyState, Page, Section, Skeleton, SplitView, Toolbar } from "#app/components/ui/page.tsx";
import { runtimeContext } from "#app/runtime/context.ts";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";
import type { Route } from "./+types/ui-catalogue";

// Issue 11: the living catalogue of the design system, every component in its states, in the
// page's language (/dev/ui, /fr/dev/ui, /es/dev/ui). Development tools only, like the mailbox.
export function loader({ context }: Route.LoaderArgs) {
  const { auth } = context.get(runtimeContext);
  if (!auth.config.mailboxEnabled) throw data({ kind: "unmatched" }, { status: 404 });
  return null;
}

const TONES: Tone[] = ["neutral", "info", "success", "warning", "danger"];
const COLOURS = ["accent", "bg", "surface", "surface-2", "fg", "fg-muted", "border", "info", "success", "warning", "danger"];
const PATIENTS = [
  { id: "1", name: "Amara Okonkwo", born: "1984-03-12", tone: "success" as Tone },
  { id: "2", name: "Jean-Baptiste Lefèvre-Delacroix", born: "1951-11-02", tone: "info" as Tone },
  { id: "3", name: "María José Fernández", born: "1999-07-30", tone: "warning" as Tone },
];
const SAMPLE_ORG: MemberOrg = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "Cabinet dentaire des Trois-Rivières et associés",
  slug: "sample",
  kind: "practice",
  plan: "practice",
  pms: "none",
  timezone: "Europe/Paris",
  region: "eu",
  trial_ends_at: null,
  role: "owner",
} as MemberOrg;

export default function UiCatalogue() {
  const { t } = useTranslation("dev");
  const [params] = useSearchParams();
  const sort: SortState = { key: params.get("sort") ?? "name", dir: params.get("dir") === "desc" ? "desc" : "asc" };
  const rows = [...PATIENTS].sort((a, b) => {
    const key = sort.key === "born" ? "born" : "name";
    return (sort.dir === "asc" ? 1 : -1) * a[key].localeCompare(b[key]);
  });
  const badge = (tone: Tone) => t(`catalogue.badge.${tone}`);
  return (
    <main className="shell-main" id="main">
      <PageMeta title={t("catalogue.title")} />
      <Page
        title={t("catalogue.title")}
        description={t("catalogue.intro")}
        actions={
          <Toolbar>
            <LanguageMenu />
          </Toolbar>
        }
        testId="ui-catalogue"
      >
        <Section title={t("catalogue.tokens")} description={t("catalogue.colours")}>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-6">
            {COLOURS.map((name) => (
              <div key={name} className="flex items-center gap-2 text-sm">
                <span
                  className="inline-block size-8 shrink-0 rounded-md border border-border"
                  style={{ background: `var(--mm-${name})` }}
                />
                <code className="truncate">--mm-{name}</code>
              </div>
            ))}
          </div>
          <h3 className="mt-4 text-sm font-semibold text-muted">{t("catalogue.type")}</h3>
          <div className="flex flex-col gap-1">
            {(["3xl", "2xl", "xl", "lg", "base", "sm", "xs"] as const).map((size) => (
              <p key={size} className="m-0" style={{ fontSize: `var(--mm-text-${size})` }}>
                {size} — {t("catalogue.sectionBody")}
              </p>
            ))}
          </div>
        </Section>

        <Section title={t("catalogue.buttons")}>
          <Toolbar>
            <button type="button" className="ui-button">
              {t("catalogue.primary")}
            </button>
            <button type="button" className="ui-button" data-variant="secondary">
              {t("catalogue.secondary")}
            </button>
            <button type="button" className="ui-button" data-variant="ghost">
              {t("catalogue.ghost")}
            </button>
            <button type="button" className="ui-button" disabled>
              {t("catalogue.primary")}
            </button>
          </Toolbar>
        </Section>

        <Section title={t("catalogue.badges")}>
          <Toolbar>
            {TONES.map((tone) => (
              <StatusBadge key={tone} tone={tone}>
                {badge(tone)}
              </StatusBadge>
            ))}
          </Toolbar>
        </Section>

        <Section title={t("catalogue.menus")}>
          <Toolbar>
            <OrgSwitcher org={SAMPLE_ORG} orgs={[SAMPLE_ORG]} />
            <UserMenu user={{ id: "u", email: "dra.fernandez.garcia@clinica-ejemplo.test" }} theme="system" />
          </Toolbar>
        </Section>

        <SplitView
          primary={
            <Section title={t("catalogue.fields")}>
              <FormField label={t("catalogue.fieldName")} name="sample_name" help={t("catalogue.fieldHelp")}>
                {(props) => <input {...props} defaultValue="Amara Okonkwo" />}
              </FormField>
              <FormField label={t("catalogue.fieldName")} name="sample_name_error" error={t("catalogue.fieldError")}>
                {(props) => <input {...props} defaultValue="" />}
              </FormField>
              <FormField label={t("catalogue.fieldDate")} name="sample_dob">
                {(props) => <input type="date" {...props} />}
              </FormField>
            </Section>
          }
          secondary={
            <>
              <Section title={t("catalogue.empty")}>
                <EmptyState
                  icon="users"
                  title={t("catalogue.emptyTitle")}
                  action={
                    <Link to="#" className="ui-button">
                      {t("catalogue.emptyAction")}
                    </Link>
                  }
                >
                  <p>{t("catalogue.emptyBody")}</p>
                </EmptyState>
              </Section>
              <Section title={t("catalogue.skeleton")}>
                <Skeleton lines={4} label={t("catalogue.loading")} />
              </Section>
            </>
          }
        />

        <Section title={t("catalogue.table")} flush>
          <DataTable
            caption={t("catalogue.tableCaption")}
            rowKey={(row) => row.id}
            rows={rows}
            sort={sort}
            sortHref={(next) => `?${new URLSearchParams({ sort: next.key, dir: next.dir })}`}
            pagination={{ page: 1, pageCount: 3, href: (page) => `?page=${page}` }}
            labels={{
              previous: t("catalogue.previous"),
              next: t("catalogue.next"),
              page: (page, count) => t("catalogue.page", { page, count }),
            }}
            columns={[
              { key: "name", header: t("catalogue.colName"), cell: (row) => row.name, sortable: true },
              { key: "born", header: t("catalogue.colBorn"), cell: (row) => row.born, sortable: true },
              {
                key: "status",
                header: t("catalogue.colStatus"),
                cell: (row) => <StatusBadge tone={row.tone}>{badge(row.tone)}</StatusBadge>,
                align: "end",
              },
            ]}
          />
        </Section>

        <div className="flex flex-col gap-4">
          <h2 className="m-0 text-lg">{t("catalogue.checklist")}</h2>
          <FirstRunChecklist progress={{ patient: false, visit: false, note: false }} />
          <FirstRunChecklist progress={{ patient: true, visit: true, note: false }} />
        </div>
      </Page>
    </main>
  );
}
