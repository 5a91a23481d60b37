import { useTranslation } from "react-i18next";
import { EmptyState } from "../ui/page.tsx";
import { AuditDetails } from "./audit-details.tsx";

export interface AuditRow {
  id: string;
  at: string;
  atIso: string;
  actor: string | null;
  system: boolean;
  action: string;
  entity: string | null;
  target: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

/** The audit entries, newest first. The table scrolls sideways inside its frame on narrow screens. */
export function AuditTable({ rows }: { rows: AuditRow[] }) {
  const { t } = useTranslation("orgSettings");
  const { t: tUi } = useTranslation("ui");
  if (rows.length === 0)
    return (
      <div data-empty="audit">
        <EmptyState icon="shield" title={t("audit.empty")}>
          <p>{tUi("audit.emptyBody")}</p>
        </EmptyState>
      </div>
    );
  return (
    // Focusable and named, so a keyboard user can scroll it sideways on a narrow screen.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (axe scrollable-region-focusable).
    <section className="ui-table-wrap" tabIndex={0} aria-label={t("audit.heading")}>
      <table className="ui-table audit-log">
        <thead>
          <tr>
            <th scope="col">{t("audit.columns.time")}</th>
            <th scope="col">{t("audit.columns.actor")}</th>
            <th scope="col">{t("audit.columns.action")}</th>
            <th scope="col">{t("audit.columns.entity")}</th>
            <th scope="col">{t("audit.columns.details")}</th>
            <th scope="col">{t("audit.columns.ip")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-audit-id={row.id} data-action={row.action}>
              <td>
                <time dateTime={row.atIso}>{row.at}</time>
              </td>
              <td>{row.actor ?? (row.system ? t("audit.system") : t("audit.formerMember"))}</td>
              <td>{t(`audit.actions.${row.action}`, { defaultValue: row.action })}</td>
              <td>
                {row.entity ? t(`audit.entities.${row.entity}`, { defaultValue: row.entity }) : "–"}
                {row.target ? (
                  <>
                    <br />
                    <small>{row.target}</small>
                  </>
                ) : null}
              </td>
              <td>
                <AuditDetails action={row.action} details={row.details} />
              </td>
              <td>{row.ip ?? "–"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
