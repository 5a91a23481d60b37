import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import type { TranscriptPanel as PanelData } from "#app/services/transcribing/page.server.ts";
import type { VisitDetails } from "#app/services/visits/visits.server.ts";
import { OfflineEngineNotice } from "./offline-engine-notice.tsx";
import { TranscriptSegments } from "./transcript-segments.tsx";

type Transcription = NonNullable<VisitDetails["transcription"]>;

/**
 * The newest transcript version with its number and origin, an editor that saves a new version
 * (the earlier ones stay), and the original (the engine's or the import) beside an edit.
 */
export function TranscriptPanel({
  visitId,
  transcription,
  panel,
  audioUrl,
  onSeek,
  error,
}: {
  visitId: string;
  transcription: Transcription;
  panel: PanelData;
  audioUrl: string | null;
  onSeek: (seconds: number) => void;
  error?: string;
}) {
  const { t } = useTranslation("app");
  const fetcher = useFetcher<{ error?: string }>();
  const [editing, setEditing] = useState(false);
  const submitted = useRef(false);
  const saving = fetcher.state !== "idle";
  // A save that went through redirects (no data): leave the editor; an error keeps it open.
  useEffect(() => {
    if (fetcher.state !== "idle" || !submitted.current) return;
    submitted.current = false;
    if (!fetcher.data?.error) setEditing(false);
  }, [fetcher.state, fetcher.data]);
  const shownError = fetcher.data?.error ?? error;
  const edited = panel.source === "edit";
  return (
    <section data-testid="transcript" data-version={transcription.version}>
      <h3>{t("visits.transcript", { engine: transcription.engine })}</h3>
      <p>
        <small data-testid="transcript-version">
          {t(edited ? "visits.version.edited" : "visits.version.label", { version: transcription.version })}
        </small>
      </p>
      <OfflineEngineNotice engine={panel.original?.engine ?? transcription.engine} />
      {shownError ? (
        <p role="alert" data-code={shownError}>
          {t(`visits.errors.${shownError}`, { defaultValue: t("visits.errors.save_failed") })}
        </p>
      ) : null}
      {editing ? (
        <fetcher.Form
          method="post"
          data-testid="transcript-editor"
          onSubmit={() => {
            submitted.current = true;
          }}
        >
          <input type="hidden" name="intent" value="edit" />
          <input type="hidden" name="visit_id" value={visitId} />
          <input type="hidden" name="base_version" value={transcription.version} />
          {transcription.segments.length > 0 ? (
            transcription.segments.map((segment, i) => (
              <label key={`${segment.start}-${segment.end}`}>
                {t("visits.edit.segment", { number: i + 1 })}
                <textarea name="segment" rows={2} defaultValue={segment.text} data-testid="segment-input" />
              </label>
            ))
          ) : (
            <label>
              {t("visits.edit.text")}
              <textarea name="text" rows={10} defaultValue={transcription.text} data-testid="text-input" />
            </label>
          )}
          <small>{t("visits.edit.hint")}</small>
          <p>
            <button type="submit" aria-busy={saving} disabled={saving} data-testid="transcript-save">
              {t("visits.edit.save")}
            </button>{" "}
            <button type="button" className="secondary" onClick={() => setEditing(false)} disabled={saving}>
              {t("visits.edit.cancel")}
            </button>
          </p>
        </fetcher.Form>
      ) : (
        <>
          {transcription.segments.length > 0 ? (
            <TranscriptSegments
              segments={transcription.segments}
              audioUrl={audioUrl}
              onSeek={onSeek}
              testId="transcript-segments"
              speakerEdit={{ visitId, version: transcription.version }}
            />
          ) : (
            <p data-testid="transcript-text" style={{ whiteSpace: "pre-line" }}>
              {transcription.text}
            </p>
          )}
          <button type="button" className="outline" onClick={() => setEditing(true)} data-testid="transcript-edit">
            {t("visits.edit.start")}
          </button>
        </>
      )}
      {panel.original ? (
        <details data-testid="transcript-original">
          <summary>
            {t("visits.version.viewOriginal", { version: panel.original.version, engine: panel.original.engine })}
          </summary>
          {panel.original.segments.length > 0 ? (
            <TranscriptSegments segments={panel.original.segments} audioUrl={audioUrl} onSeek={onSeek} />
          ) : (
            <p style={{ whiteSpace: "pre-line" }}>{panel.original.text}</p>
          )}
        </details>
      ) : null}
    </section>
  );
}
