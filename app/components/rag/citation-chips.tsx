import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { Citation } from "#app/services/rag/model.ts";
import { formatCalendarDate } from "#app/utils/zoned-time.ts";
import { groupCitations, type NumberedCitation } from "./citation-groups.ts";

// SPEC §2 "Citation chips" in the chat: six, then '+N more' grouped by 'visit name · date'; the
// snippet on hover (and focus, through the title); a coloured dot per table; a click opens the
// source modal. Chip ids match the answer's [n] markers within one message.

function Chip({ item, idPrefix, onOpen }: { item: NumberedCitation; idPrefix: string; onOpen: (citation: Citation) => void }) {
  const { t } = useTranslation("rag");
  const { citation, n } = item;
  return (
    <li id={`${idPrefix}-citation-${n}`}>
      <button
        type="button"
        className="rag-chip"
        title={citation.snippet}
        data-table={citation.source.table}
        data-testid="citation-chip"
        onClick={() => onOpen(citation)}
      >
        <span className="rag-dot" aria-hidden="true" />
        <span className="ui-truncate">
          [{n}] {citation.title}
        </span>
        <span className="sr-only">{t(`tables.${citation.source.table}`)}</span>
      </button>
    </li>
  );
}

export function CitationChips({
  citations,
  idPrefix,
  onOpen,
}: {
  citations: Citation[];
  idPrefix: string;
  onOpen: (citation: Citation) => void;
}) {
  const { t } = useTranslation("rag");
  const locale = useLocale();
  const [expanded, setExpanded] = useState(false);
  if (citations.length === 0) return null;
  const groups = groupCitations(citations, (day) => formatCalendarDate(day, locale));
  const moreId = `${idPrefix}-more`;
  return (
    <div className="ask-citations" data-testid="chat-citations">
      <ul className="rag-chips">
        {groups.shown.map((item) => (
          <Chip key={item.citation.id} item={item} idPrefix={idPrefix} onOpen={onOpen} />
        ))}
        {groups.moreCount > 0 ? (
          <li>
            <button
              type="button"
              className="rag-chip ask-more"
              aria-expanded={expanded}
              aria-controls={moreId}
              onClick={() => setExpanded((open) => !open)}
            >
              {t("page.more", { count: groups.moreCount })}
            </button>
          </li>
        ) : null}
      </ul>
      {groups.moreCount > 0 ? (
        <div id={moreId} hidden={!expanded} data-testid="more-citations">
          {groups.more.map((group) => (
            <section key={group.label} className="ask-group">
              <h4>{group.label}</h4>
              <ul className="rag-chips">
                {group.items.map((item) => (
                  <Chip key={item.citation.id} item={item} idPrefix={idPrefix} onOpen={onOpen} />
                ))}
              </ul>
            </section>
          ))}
        </div>
      ) : null}
    </div>
  );
}
