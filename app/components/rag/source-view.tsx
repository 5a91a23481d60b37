import { useTranslation } from "react-i18next";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { SourceView as Source } from "#app/services/rag/source.server.ts";
import { formatCalendarDate } from "#app/utils/zoned-time.ts";
import { openSourceHref } from "./citation-list.tsx";

/** SPEC §2 "Source modal", as a server-rendered panel: title, date, visit name, content, table and field, links. */
export function SourceView({
  source,
  error,
  closeHref,
  timestamp,
}: {
  source: Source | null;
  error: string | null;
  closeHref: string;
  timestamp: number;
}) {
  const { t } = useTranslation("rag");
  const locale = useLocale();
  const to = useLocalizedPath();
  if (!source) {
    return (
      <aside className="rag-source" data-testid="source-view" aria-labelledby="rag-source-title">
        <h2 id="rag-source-title">{t("page.source")}</h2>
        <p role="alert">{t(`errors.${error ?? "source_not_found"}`, { defaultValue: t("errors.unexpected") })}</p>
        <a href={closeHref}>{t("page.close")}</a>
      </aside>
    );
  }
  const m = source.metadata;
  return (
    <aside className="rag-source" data-testid="source-view" data-table={m.table} aria-labelledby="rag-source-title">
      <h2 id="rag-source-title">{source.title}</h2>
      <p className="rag-muted">
        {/^\d{4}-\d{2}-\d{2}$/.test(source.created_at) ? formatCalendarDate(source.created_at, locale) : source.created_at}
        {m.visit_name && m.visit_name !== source.title ? ` · ${m.visit_name}` : ""}
        {" · "}
        {t("page.field", { table: t(`tables.${m.table}`), field: m.field })}
        {m.start !== undefined ? ` · ${t("page.seconds", { start: Math.floor(m.start) })}` : ""}
      </p>
      {source.content ? <blockquote>{source.content}</blockquote> : <p>{t("page.noContent")}</p>}
      <p className="rag-source-actions">
        <a className="ui-button" href={openSourceHref(m.table, m.id, to, timestamp, m.start)}>
          {t("page.openSource")}
        </a>{" "}
        <a href={closeHref}>{t("page.close")}</a>
      </p>
    </aside>
  );
}
