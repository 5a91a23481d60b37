import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { RecentNote } from "#app/services/notes/notes.server.ts";

/** /coding without an id: the organisation's newest notes. */
export function NoteList({ notes }: { notes: readonly RecentNote[] }) {
  const { t, i18n } = useTranslation("notes");
  const localize = useLocalizedPath();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  return (
    <section aria-labelledby="recent-notes" data-testid="note-list">
      <h2 id="recent-notes">{t("list.title")}</h2>
      {notes.length === 0 ? (
        <p>{t("list.empty")}</p>
      ) : (
        <ul className="note-list">
          {notes.map((n) => (
            <li key={n.id} data-status={n.status}>
              <Link to={`${localize("/coding")}?id=${n.id}`} aria-label={t("list.open", { patient: n.patient_name })}>
                <strong>{n.patient_name}</strong>
                {n.visit_title ? ` — ${n.visit_title}` : ""}
              </Link>
              <br />
              <small>
                {n.template_name} · {t(`status.${n.status}`)} ·{" "}
                <time dateTime={n.created_at}>{date.format(new Date(n.created_at))}</time>
              </small>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
