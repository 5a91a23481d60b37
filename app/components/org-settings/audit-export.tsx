import { useTranslation } from "react-i18next";
import type { AuditFilterValues } from "./audit-filters.tsx";

/**
 * Owners' download of the audit log (issue 17): the filters on screen, as CSV or JSON. Plain links to
 * the export API (the session cookie authenticates them), so they work without JavaScript.
 */
export function AuditExport({ orgId, filters }: { orgId: string; filters: AuditFilterValues }) {
  const { t } = useTranslation("orgSettings");
  const href = (format: "csv" | "json") => {
    const query = new URLSearchParams({ format });
    for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
    return `/api/orgs/${encodeURIComponent(orgId)}/audit-log/export?${query}`;
  };
  return (
    <div className="ui-form-actions" data-audit-export="">
      <a className="ui-button" data-variant="secondary" href={href("csv")} download>
        {t("audit.export.csv")}
      </a>
      <a className="ui-button" data-variant="secondary" href={href("json")} download>
        {t("audit.export.json")}
      </a>
    </div>
  );
}
