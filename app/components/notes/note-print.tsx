import { useTranslation } from "react-i18next";
import type { NoteView } from "#app/services/notes/note-rows.server.ts";
import { noteBlocks } from "#app/services/notes/render.ts";

/** What the print stylesheet shows instead of the page: the note's text, and its signature once signed. */
export function NotePrint({
  title,
  patient,
  note,
  signedAt,
}: {
  title: string;
  patient: string;
  note: NoteView;
  signedAt: string | null;
}) {
  const { t } = useTranslation("notes");
  return (
    <div className="note-print" lang={note.language} aria-hidden="true">
      <h1>{title}</h1>
      <p>{patient}</p>
      {noteBlocks(note.sections, note.headers).map((b) => (
        <section key={b.key}>
          {b.title ? <h2>{b.title}</h2> : null}
          {b.text ? <p>{b.text}</p> : null}
        </section>
      ))}
      {signedAt && note.content_hash ? (
        <p>
          {t("sign.signedAt", { date: signedAt })}
          <br />
          {t("sign.hash")}: {note.content_hash}
        </p>
      ) : null}
    </div>
  );
}
