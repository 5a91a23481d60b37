import { useTranslation } from "react-i18next";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { Citation } from "#app/services/rag/model.ts";
import { formatCalendarDate } from "#app/utils/zoned-time.ts";
import { groupCitations } from "./citation-groups.ts";

/** SPEC §2 "Source modal": where 'Open source' goes, with a cache-busting timestamp. */
export function openSourceHref(
  table: string,
  id: string,
  to: (path: string) => string,
  timestamp: number,
  start?: number | null,
): string {
  if (table === "transcriptions") {
    // A transcript passage also carries its second: /transcribing seeks the audio there (second 0
    // is where the player starts anyway).
    const seek = typeof start === "number" && Number.isFinite(start) && start > 0 ? `&start=${Math.floor(start)}` : "";
    return `${to("/transcribing")}?visit_id=${id}&r=${timestamp}${seek}`;
  }
  if (table === "doctor_notes") return `${to("/coding")}?id=${id}&r=${timestamp}`;
  return to("/records-qa");
}

function Chip({ citation, n, href }: { citation: Citation; n: number; href: string }) {
  const { t } = useTranslation("rag");
  const locale = useLocale();
  const date = /^\d{4}-\d{2}-\d{2}$/.test(citation.created_at) ? formatCalendarDate(citation.created_at, locale) : "";
  return (
    <li id={`citation-${n}`}>
      <a className="rag-chip" href={href} title={citation.snippet} data-table={citation.source.table}>
        <span className="rag-dot" aria-hidden="true" />
        <span>
          [{n}] {date ? t("page.chipTitle", { title: citation.title, date }) : citation.title}
        </span>
        <span className="sr-only">{t(`tables.${citation.source.table}`)}</span>
      </a>
    </li>
  );
}

/**
 * The citation chips: the first six, then '+N more' grouped by 'visit name · date' (a <details>,
 * so it opens without JavaScript). A chip opens the source view of this page.
 */
export function CitationList({ citations, sourceHref }: { citations: Citation[]; sourceHref: (id: string) => string }) {
  const { t } = useTranslation("rag");
  const locale = useLocale();
  if (citations.length === 0) return <p className="rag-muted">{t("page.noSources")}</p>;
  const groups = groupCitations(citations, (day) => formatCalendarDate(day, locale));
  return (
    <div className="rag-citations" data-testid="citations">
      <ul className="rag-chips">
        {groups.shown.map(({ citation, n }) => (
          <Chip key={citation.id} citation={citation} n={n} href={sourceHref(citation.id)} />
        ))}
      </ul>
      {groups.moreCount > 0 ? (
        <details className="rag-more">
          <summary>{t("page.more", { count: groups.moreCount })}</summary>
          {groups.more.map((group) => (
            <section key={group.label}>
              <h4>{group.label}</h4>
              <ul className="rag-chips">
                {group.items.map(({ citation, n }) => (
                  <Chip key={citation.id} citation={citation} n={n} href={sourceHref(citation.id)} />
                ))}
              </ul>
            </section>
          ))}
        </details>
      ) : null}
    </div>
  );
}
