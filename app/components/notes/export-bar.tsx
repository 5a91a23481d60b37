import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { HeaderMode, NoteSectionDraft } from "#app/services/notes/model.ts";
import { noteText } from "#app/services/notes/render.ts";

/**
 * Copy to the clipboard, print (the print stylesheet shows only the note) and the server-rendered
 * PDF (GET /api/notes/:id/pdf; a link, so it also works without JavaScript).
 */
export function ExportBar({
  noteId,
  orgId,
  sections,
  headers,
}: {
  noteId: string;
  orgId: string;
  sections: readonly NoteSectionDraft[];
  headers: Readonly<Record<string, HeaderMode>>;
}) {
  const { t } = useTranslation("notes");
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    // The Clipboard API exists only in secure contexts; elsewhere the button quietly does nothing.
    try {
      await navigator.clipboard.writeText(noteText(sections, headers));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="note-export no-print">
      <button type="button" className="secondary outline" onClick={() => void copy()} data-testid="note-copy">
        {t("export.copy")}
      </button>
      <button type="button" className="secondary outline" onClick={() => window.print()}>
        {t("export.print")}
      </button>
      <a
        className="secondary outline"
        href={`/api/notes/${noteId}/pdf?org_id=${encodeURIComponent(orgId)}`}
        data-testid="note-pdf"
      >
        {t("export.pdf")}
      </a>
      {copied ? (
        <small role="status" data-testid="note-copied">
          {t("export.copied")}
        </small>
      ) : null}
    </div>
  );
}
