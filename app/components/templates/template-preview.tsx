import { useTranslation } from "react-i18next";
import type { NoteLanguage, TemplateSection } from "#app/services/notes/model.ts";
import { previewSections } from "#app/services/notes/templates/preview.ts";
import { sampleTranscript } from "#app/services/notes/templates/sample-transcript.ts";
import { EnginePreview } from "./engine-preview.tsx";

/**
 * The live preview: the note's structure as the template lays it out (headers by mode, fixed
 * text, placeholders as "[blood pressure]"), beside the bundled sample visit it would be drafted from.
 */
export function TemplatePreview({
  name,
  sections,
  language,
  content,
}: {
  name: string;
  sections: TemplateSection[];
  language: NoteLanguage;
  /** The whole working copy, for the engine preview. */
  content: unknown;
}) {
  const { t } = useTranslation("templates");
  return (
    <section className="templates-preview" aria-labelledby="template-preview-heading" data-testid="template-preview">
      <h2 id="template-preview-heading">{t("preview.heading")}</h2>
      <p className="templates-muted">{t("preview.intro")}</p>
      <article lang={language}>
        <h3>{name || t("editor.untitled")}</h3>
        {previewSections({ sections }).map((s) => (
          <div key={s.key} className="templates-preview-section" data-key={s.key}>
            {s.title ? <h4>{s.title}</h4> : null}
            {s.style === "bullets" && s.lines.length > 0 ? (
              <ul>
                {s.lines.map((line) => (
                  <li key={`${line.source}:${line.text}`} data-source={line.source}>
                    {line.text}
                  </li>
                ))}
              </ul>
            ) : (
              s.lines.map((line) => (
                <p key={`${line.source}:${line.text}`} data-source={line.source}>
                  {line.text}
                </p>
              ))
            )}
            {s.fromVisit ? <p className="templates-muted">{t("preview.fromVisit")}</p> : null}
          </div>
        ))}
      </article>
      <EnginePreview content={content} />
      <details>
        <summary>{t("preview.sample")}</summary>
        <ol className="templates-sample" lang={language}>
          {sampleTranscript(language).map((piece) => (
            <li key={piece.start}>
              <strong>{t(`preview.speakers.${piece.speaker}`)}</strong> {piece.text}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}
