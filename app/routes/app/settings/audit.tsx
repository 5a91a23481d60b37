import { useTranslation } from "react-i18next";
import { data, isRouteErrorResponse, Link } from "react-router";
import { AuditExport } from "#app/components/org-settings/audit-export.tsx";
import { AuditFilters } from "#app/components/org-settings/audit-filters.tsx";
import { AuditPagination } from "#app/components/org-settings/audit-pagination.tsx";
import { AuditTable } from "#app/components/org-settings/audit-table.tsx";
import { Section } from "#app/components/ui/page.tsx";
import { localeFromPath } from "#app/i18n/config.ts";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { ORG_AUDIT_ACTIONS } from "#app/services/orgs/audit.server.ts";
import { listAuditLog } from "#app/services/orgs/audit-log.server.ts";
import { MANAGER_ROLES } from "#app/services/orgs/context.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { formatInZone } from "#app/utils/zoned-time.ts";
import type { Route } from "./+types/audit";
import { parseAuditFilters } from "./audit-schemas.ts";
import { settingsServiceArgs } from "./org-settings.server.ts";

/** Why the page could not be shown: a stable code the error boundary translates. */
function refuse(status: number, code: string): never {
  throw data({ code }, { status });
}

// Settings → Audit log (issue 4): owners and admins only. Other members get 403 forbidden_role,
// like the API answers a member whose role does not allow an action (docs/permissions.md); the
// tab is hidden from them. Malformed filters are 400 invalid_audit_filter, never a 500.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { role, org } = requireOrg(context);
  if (!MANAGER_ROLES.includes(role)) refuse(403, "forbidden_role");
  const url = pageUrl(request);
  const filters = parseAuditFilters(url.searchParams);
  if (!filters) refuse(400, "invalid_audit_filter");
  let page: Awaited<ReturnType<typeof listAuditLog>>;
  try {
    page = await listAuditLog({
      ...settingsServiceArgs(context, request),
      filters: { actorId: filters.actor, action: filters.action, from: filters.from, to: filters.to, before: filters.before },
    });
  } catch (error) {
    if (isAppError(error)) refuse(error.status, error.code);
    throw error;
  }
  const locale = localeFromPath(url.pathname);
  const emails = new Map(page.members.map((m) => [m.user_id, m.email]));
  return {
    rows: page.entries.map((entry) => ({
      id: entry.id,
      // Read on the organisation's clock, the same one the day filters cut days with.
      at: formatInZone(entry.at, locale, page.timezone, { dateStyle: "medium", timeStyle: "medium" }),
      atIso: entry.at,
      actor: entry.actor_email,
      // No actor at all is the system (billing webhooks write through the owner connection).
      system: entry.actor_id === null,
      action: entry.action,
      entity: entry.entity,
      target: targetOf(entry, emails),
      ip: entry.ip,
      details: entry.details,
    })),
    next: page.next,
    paged: filters.before !== undefined,
    actors: page.members.map((m) => ({ id: m.user_id, label: m.email ?? m.full_name ?? m.user_id.slice(0, 8) })),
    actions: ORG_AUDIT_ACTIONS,
    filters: { actor: filters.actor ?? "", action: filters.action ?? "", from: filters.from ?? "", to: filters.to ?? "" },
    timezone: page.timezone,
    // Issue 17: only owners may take the log out of the app (the export API answers others 403).
    exportOrgId: role === "owner" ? org.id : null,
  };
}

/** Who or what an entry is about, in words: a member's email, an invitation's address. */
function targetOf(
  entry: { entity: string | null; entity_id: string | null; details: Record<string, unknown> },
  emails: Map<string, string | null>,
): string | null {
  if (entry.entity === "member" && entry.entity_id) return emails.get(entry.entity_id) ?? null;
  if (entry.entity === "invitation" && typeof entry.details.email === "string") return entry.details.email;
  return null;
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("orgSettings");
  return (
    <div className="ui-stack" data-section="audit">
      <Section id="audit" title={t("audit.heading")} description={t("audit.intro", { timezone: loaderData.timezone })}>
        <AuditFilters values={loaderData.filters} actors={loaderData.actors} actions={loaderData.actions} />
        {loaderData.exportOrgId ? <AuditExport orgId={loaderData.exportOrgId} filters={loaderData.filters} /> : null}
      </Section>
      <Section flush={loaderData.rows.length > 0}>
        <AuditTable rows={loaderData.rows} />
        <AuditPagination filters={loaderData.filters} next={loaderData.next} paged={loaderData.paged} />
      </Section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation("orgSettings");
  const to = useLocalizedPath();
  const code = isRouteErrorResponse(error) ? (error.data as { code?: unknown } | null)?.code : undefined;
  if (code !== "invalid_audit_filter" && code !== "forbidden_role") throw error;
  return (
    <div data-section="audit" data-error={code}>
      <Section id="audit" title={t("audit.heading")}>
        <p role="alert">{t(`errors.${code}`)}</p>
        {code === "invalid_audit_filter" ? (
          <Link to={to("/settings/audit")} className="ui-button" data-variant="secondary">
            {t("audit.filters.reset")}
          </Link>
        ) : null}
      </Section>
    </div>
  );
}
