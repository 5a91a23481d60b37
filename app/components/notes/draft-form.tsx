import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import type { NoteSectionDraft, NoteSentence } from "#app/services/notes/model.ts";
import { NoteSentences } from "./note-sentences.tsx";

/**
 * The draft: per section its sentences (evidence on hover, audio on click), a textarea and
 * "Regenerate"; then Save and Sign. One form, so regenerating or signing saves typed text first.
 */
export function DraftForm({
  noteId,
  sections,
  language,
  canSign,
  blocking = 0,
  onHover,
  onPlay,
}: {
  noteId: string;
  sections: readonly NoteSectionDraft[];
  language: string;
  canSign: boolean;
  /** Issue 27: open gating checks; Sign stays disabled (with the count) until there are none. */
  blocking?: number;
  onHover: (sentence: NoteSentence | null) => void;
  onPlay: (seconds: number) => void;
}) {
  const { t } = useTranslation("notes");
  const { t: tChecks } = useTranslation("checks");
  const busy = useNavigation().state !== "idle";
  const confirmSign = (event: MouseEvent<HTMLButtonElement>) => {
    if (!window.confirm(t("sign.confirm"))) event.preventDefault();
  };
  return (
    <Form method="post" className="note-draft" data-testid="note-draft">
      <input type="hidden" name="note_id" value={noteId} />
      {sections.map((section) => (
        <section
          key={section.key}
          id={`note-section-${section.key}`}
          className="note-section"
          data-key={section.key}
          data-testid={`note-section-${section.key}`}
        >
          <header>
            <h3 lang={language}>{section.title}</h3>
            <button
              type="submit"
              name="regenerate"
              value={section.key}
              className="secondary outline"
              aria-label={t("editor.regenerateLabel", { title: section.title })}
              disabled={busy}
            >
              {t("editor.regenerate")}
            </button>
          </header>
          {section.sentences.length ? (
            <NoteSentences sentences={section.sentences} onHover={onHover} onPlay={onPlay} />
          ) : (
            <p className="note-empty">{t("editor.empty")}</p>
          )}
          <textarea
            name={`section.${section.key}`}
            defaultValue={section.text}
            lang={language}
            rows={Math.min(12, Math.max(2, section.text.split("\n").length + 1))}
            aria-label={t("editor.editLabel", { title: section.title })}
          />
        </section>
      ))}
      <div className="note-actions">
        <button type="submit" name="intent" value="save" disabled={busy} data-testid="note-save">
          {t("editor.save")}
        </button>
        {canSign ? (
          <button
            type="submit"
            name="intent"
            value="sign"
            className="contrast"
            onClick={confirmSign}
            disabled={busy || blocking > 0}
            aria-describedby={blocking > 0 ? "note-checks-title" : undefined}
            data-testid="note-sign"
          >
            {blocking > 0 ? tChecks("panel.signBlocked", { count: blocking }) : t("sign.submit")}
          </button>
        ) : (
          <small>{t("sign.notAllowed")}</small>
        )}
      </div>
    </Form>
  );
}
