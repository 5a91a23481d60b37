import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { AuditFilterValues } from "./audit-filters.tsx";

/** Keyset paging: "older" continues after the last row shown; "newest" returns to the top with the same filters. */
export function AuditPagination({ filters, next, paged }: { filters: AuditFilterValues; next: string | null; paged: boolean }) {
  const { t } = useTranslation("orgSettings");
  const to = useLocalizedPath();
  if (!next && !paged) return null;
  const href = (before: string | null) => {
    const params = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== ""));
    if (before) params.set("before", before);
    const query = params.toString();
    return to(`/settings/audit${query ? `?${query}` : ""}`);
  };
  return (
    <nav aria-label={t("audit.pagination.label")} className="ui-pagination">
      <ul>
        {paged ? (
          <li>
            <Link to={href(null)}>{t("audit.pagination.newest")}</Link>
          </li>
        ) : null}
        {next ? (
          <li>
            <Link to={href(next)} rel="next">
              {t("audit.pagination.older")}
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
