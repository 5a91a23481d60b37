import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import type { NoteSectionDraft, NoteSentence } from "#app/services/notes/model.ts";
import type { NoteView } from "#app/services/notes/note-rows.server.ts";
import { NoteSentences } from "./note-sentences.tsx";

/** A signed note: read-only sentences (evidence still follows), the signature and hash, and "Amend" with a reason. */
export function SignedView({
  note,
  canAmend,
  signedAt,
  onHover,
  onPlay,
}: {
  note: NoteView;
  canAmend: boolean;
  signedAt: string;
  onHover: (sentence: NoteSentence | null) => void;
  onPlay: (seconds: number) => void;
}) {
  const { t } = useTranslation("notes");
  const busy = useNavigation().state !== "idle";
  const shown = note.sections.filter((s) => s.text.trim());
  return (
    <div className="note-signed" data-testid="note-signed">
      <p className="no-print">{t("editor.readOnly")}</p>
      {shown.map((section) => (
        <section key={section.key} className="note-section" data-key={section.key} data-testid={`note-section-${section.key}`}>
          <h3 lang={note.language}>{section.title}</h3>
          <NoteSentences sentences={section.sentences} onHover={onHover} onPlay={onPlay} />
        </section>
      ))}
      <p className="note-signature">
        {t("sign.signedAt", { date: signedAt })}
        <br />
        <small>
          {t("sign.hash")}: <code data-testid="note-hash">{note.content_hash}</code>
        </small>
      </p>
      {canAmend ? (
        <details className="note-amend no-print" data-testid="note-amend">
          <summary className="secondary">{t("amend.open")}</summary>
          <Form method="post">
            <input type="hidden" name="note_id" value={note.id} />
            <h3>{t("amend.title")}</h3>
            {note.sections.map((section: NoteSectionDraft) => (
              <label key={section.key}>
                <span lang={note.language}>{section.title}</span>
                <textarea
                  name={`section.${section.key}`}
                  defaultValue={section.text}
                  lang={note.language}
                  rows={Math.min(10, Math.max(2, section.text.split("\n").length + 1))}
                />
              </label>
            ))}
            <label>
              {t("amend.reason")}
              <input name="reason" required maxLength={2000} data-testid="note-amend-reason" />
            </label>
            <button type="submit" name="intent" value="amend" disabled={busy} data-testid="note-amend-submit">
              {t("amend.submit")}
            </button>
          </Form>
        </details>
      ) : null}
    </div>
  );
}
