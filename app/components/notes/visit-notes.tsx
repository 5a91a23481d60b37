import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { NoteSummary } from "#app/services/notes/notes.server.ts";
import { formatDate } from "#app/utils/zoned-time.ts";

/** /transcribing: the notes already drafted from this visit, each opening in the note editor. */
export function VisitNotes({ notes, timeZone }: { notes: readonly NoteSummary[]; timeZone: string }) {
  const { t, i18n } = useTranslation("notes");
  const localize = useLocalizedPath();
  if (notes.length === 0) return null;
  return (
    <section aria-labelledby="visit-notes" data-testid="visit-notes">
      <h3 id="visit-notes">{t("visitNotes.title")}</h3>
      <ul className="note-list">
        {notes.map((n) => (
          <li key={n.id} data-status={n.status}>
            <Link to={`${localize("/coding")}?id=${n.id}`}>{n.template_name}</Link>{" "}
            <small>
              · {t(`status.${n.status}`)} ·{" "}
              <time dateTime={n.created_at}>{formatDate(n.created_at, i18n.language, timeZone)}</time>
            </small>
          </li>
        ))}
      </ul>
    </section>
  );
}
