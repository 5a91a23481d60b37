import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { RecentNote } from "#app/services/notes/notes.server.ts";
import { formatDate } from "#app/utils/zoned-time.ts";

/** /coding without an id: the organisation's newest notes; the dashboard: the drafts to sign ("drafts"). */
export function NoteList({
  notes,
  timeZone,
  variant = "list",
}: {
  notes: readonly RecentNote[];
  /** The organisation's time zone: the server's and the browser's rendering print the same time. */
  timeZone: string;
  variant?: "list" | "drafts";
}) {
  const { t, i18n } = useTranslation("notes");
  const localize = useLocalizedPath();
  return (
    <section aria-labelledby={`notes-${variant}`} data-testid={variant === "list" ? "note-list" : "draft-notes"}>
      <h2 id={`notes-${variant}`}>{t(`${variant}.title`)}</h2>
      {notes.length === 0 ? (
        <p>{t(`${variant}.empty`)}</p>
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
                <time dateTime={n.created_at}>{formatDate(n.created_at, i18n.language, timeZone)}</time>
              </small>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
