import { Dialog } from "radix-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "#app/components/ui/icons.tsx";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { Citation } from "#app/services/rag/model.ts";
import { formatCalendarDate } from "#app/utils/zoned-time.ts";
import { fetchSource } from "./ask-client.ts";
import { openSourceHref } from "./citation-list.tsx";

// SPEC §2 "Source modal" in the widget: the chip's citation at once, then GET /api/rag/source
// (retried once after 250 ms, SPEC §7); when both fail the modal keeps what the chip had (§8).

interface SourceResponse {
  title?: string;
  content?: string;
  created_at?: string;
  metadata?: Partial<Citation["source"]>;
}

/** The citation with what the source endpoint added (content, title, date, metadata). */
export function mergeSource(citation: Citation, fetched: SourceResponse | null): Citation {
  if (!fetched) return citation;
  return {
    ...citation,
    title: fetched.title || citation.title,
    content: fetched.content ?? citation.content,
    created_at: fetched.created_at || citation.created_at,
    source: { ...citation.source, ...(fetched.metadata ?? {}) },
  };
}

export function SourceModal({ citation, orgId, onClose }: { citation: Citation | null; orgId: string; onClose: () => void }) {
  const { t } = useTranslation("rag");
  const locale = useLocale();
  const to = useLocalizedPath();
  const [loaded, setLoaded] = useState<Citation | null>(null);
  const [loading, setLoading] = useState(false);
  // The 'Open source' links carry the moment the modal opened (SPEC §2 `&r={timestamp}`).
  const [openedAt, setOpenedAt] = useState(0);

  useEffect(() => {
    if (!citation) return;
    let cancelled = false;
    setLoaded(citation);
    setOpenedAt(Date.now());
    setLoading(true);
    void fetchSource(citation.id, { orgId }).then((fetched) => {
      if (cancelled) return;
      setLoaded(mergeSource(citation, fetched as SourceResponse | null));
      setLoading(false);
    });
    return () => {
      cancelled = true;
    };
  }, [citation, orgId]);

  const shown = loaded ?? citation;
  const m = shown?.source;
  const day =
    shown && /^\d{4}-\d{2}-\d{2}$/.test(shown.created_at) ? formatCalendarDate(shown.created_at, locale) : shown?.created_at;
  return (
    <Dialog.Root open={citation !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="ui-overlay ask-source-overlay" />
        <Dialog.Content
          className="ask-source-modal"
          data-testid="source-modal"
          data-table={m?.table}
          aria-describedby={undefined}
        >
          {shown && m ? (
            <>
              <div className="ask-source-head">
                <Dialog.Title>{shown.title}</Dialog.Title>
                <Dialog.Close className="ui-icon-button" aria-label={t("page.close")}>
                  <Icon name="close" />
                </Dialog.Close>
              </div>
              <p className="rag-muted">
                {day}
                {/* The visit name when the title is not already it (a note section's title is not). */}
                {m.visit_name && m.visit_name !== shown.title ? ` · ${m.visit_name}` : ""}
              </p>
              <p className="rag-muted" data-testid="source-field">
                <span className="rag-dot" aria-hidden="true" />{" "}
                {t("page.field", { table: t(`tables.${m.table}`), field: m.field })}
                {m.start !== undefined ? ` · ${t("page.seconds", { start: Math.floor(m.start) })}` : ""}
              </p>
              {loading ? (
                <p className="ask-spinner" role="status" data-testid="source-loading">
                  <span className="ask-spinner-ring" aria-hidden="true" />
                  {t("widget.loadingSource")}
                </p>
              ) : shown.content ? (
                <blockquote className="ask-source-content">{shown.content}</blockquote>
              ) : (
                <p>{t("page.noContent")}</p>
              )}
              <p className="rag-source-actions">
                <a className="ui-button" href={openSourceHref(m.table, m.id, to, openedAt, m.start)}>
                  {t("page.openSource")}
                </a>{" "}
                <Dialog.Close className="ui-button" data-variant="secondary">
                  {t("page.close")}
                </Dialog.Close>
              </p>
            </>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
