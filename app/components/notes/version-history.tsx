import { useTranslation } from "react-i18next";
import type { NoteVersionSummary } from "#app/services/notes/note-rows.server.ts";

/** The note's versions: draft saves, the signature, amendments with their reason. */
export function VersionHistory({
  versions,
  format,
}: {
  versions: readonly NoteVersionSummary[];
  format: (iso: string) => string;
}) {
  const { t } = useTranslation("notes");
  if (!versions.length) return null;
  return (
    <details className="note-versions no-print" data-testid="note-versions">
      <summary>{t("versions.title")}</summary>
      <ol>
        {versions.map((v) => (
          <li key={v.version} data-kind={v.kind}>
            {t(`versions.${v.kind}`)} · <time dateTime={v.created_at}>{format(v.created_at)}</time>
            {v.amendment_reason ? (
              <>
                <br />
                <small>{t("versions.reason", { reason: v.amendment_reason })}</small>
              </>
            ) : null}
          </li>
        ))}
      </ol>
    </details>
  );
}
