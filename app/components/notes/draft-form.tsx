import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import type { NoteSectionDraft, NoteSentence } from "#app/services/notes/model.ts";
import { NoteSentences } from "./note-sentences.tsx";

/**
 * The draft: per section its sentences (evidence on hover, audio on click), a textarea and
 * "Regenerate". Save and Sign live in the editor's sticky bar (NoteBar) and submit this form through
 * their `form` attribute, so regenerating or signing still saves typed text first.
 */
export const DRAFT_FORM_ID = "note-draft-form";

export function DraftForm({
  noteId,
  sections,
  language,
  onHover,
  onPlay,
}: {
  noteId: string;
  sections: readonly NoteSectionDraft[];
  language: string;
  onHover: (sentence: NoteSentence | null) => void;
  onPlay: (seconds: number) => void;
}) {
  const { t } = useTranslation("notes");
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" id={DRAFT_FORM_ID} className="note-draft" data-testid="note-draft">
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
            <NoteSentences sentences={section.sentences} sectionKey={section.key} onHover={onHover} onPlay={onPlay} />
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
    </Form>
  );
}
