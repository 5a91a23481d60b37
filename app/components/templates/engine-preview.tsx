import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import type { EnginePreviewSection } from "#app/services/notes/templates/engine-preview.server.ts";
import { TemplateError } from "./template-error.tsx";

interface PreviewAnswer {
  intent: string;
  preview?: { language: string; sections: EnginePreviewSection[] };
  error?: string;
}

/** "Preview with sample visit": the unsaved template drafted by the extractive engine on the server. */
export function EnginePreview({ content }: { content: unknown }) {
  const { t } = useTranslation("templates");
  const fetcher = useFetcher<PreviewAnswer>();
  const busy = fetcher.state !== "idle";
  const preview = fetcher.data?.preview;
  return (
    <div className="templates-engine-preview" data-testid="engine-preview">
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="preview" />
        <input type="hidden" name="template" value={JSON.stringify(content)} />
        <button type="submit" className="ui-button" data-variant="secondary" disabled={busy} aria-busy={busy || undefined}>
          {t("preview.engine")}
        </button>
      </fetcher.Form>
      <TemplateError code={fetcher.data?.error} />
      {preview ? (
        <article lang={preview.language} aria-label={t("preview.engineResult")}>
          {preview.sections
            .filter((s) => s.text || s.header === "always")
            .map((s) => (
              <div key={s.key} className="templates-preview-section" data-key={s.key}>
                {s.header === "never" ? null : <h4>{s.title}</h4>}
                {s.text ? (
                  <p className="templates-engine-text">{s.text}</p>
                ) : (
                  <p className="templates-muted">{t("preview.engineEmpty")}</p>
                )}
              </div>
            ))}
        </article>
      ) : null}
    </div>
  );
}
