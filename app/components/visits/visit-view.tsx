import { useCallback, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator, useSearchParams } from "react-router";
import { RecorderPanel } from "#app/components/recorder/recorder-panel.tsx";
import type { TranscriptPanel as PanelData } from "#app/services/transcribing/page.server.ts";
import type { VisitDetails } from "#app/services/visits/visits.server.ts";
import { RerunButton } from "./rerun-button.tsx";
import { seekSecondsFrom } from "./seek-param.ts";
import { TranscriptPanel } from "./transcript-panel.tsx";
import { useAwaitDraft } from "./use-await-draft.ts";
import { useVisitEvents } from "./use-visit-events.ts";

const RECORDING = new Set(["draft", "recording"]);
const WAITING = new Set(["uploaded", "transcribing"]);

/** One visit: record while it is open, then follow its transcription, play it and read, edit or redo the transcript. */
export function VisitView({
  visit,
  orgId,
  userId,
  transcript,
  error,
}: {
  visit: VisitDetails;
  orgId: string;
  userId: string;
  transcript: PanelData;
  error?: string;
}) {
  const { t } = useTranslation("app");
  const revalidator = useRevalidator();
  const refresh = useCallback(() => void revalidator.revalidate(), [revalidator]);
  const waiting = WAITING.has(visit.status);
  const progress = useVisitEvents({
    visitId: visit.id,
    orgId,
    status: visit.status,
    initialProgress: transcript.progress,
    enabled: waiting,
    onStatusChange: refresh,
  });
  // Owners and clinicians (who may read notes) wait for the auto-drafted note (issue 29).
  useAwaitDraft(visit.status === "transcribed" && visit.note === null && transcript.canRerun);
  const player = useRef<HTMLAudioElement>(null);
  const hasAudio = visit.audio.sha256 !== null;
  const audioUrl = hasAudio ? `/api/visits/${visit.id}/audio/file?org_id=${encodeURIComponent(orgId)}` : null;
  const seek = useCallback((seconds: number) => {
    const audio = player.current;
    if (!audio) return;
    audio.currentTime = seconds;
    // Playback may be refused (no audio output, autoplay rules): the position still moved.
    audio.play().catch(() => {});
  }, []);
  // A cited second (?start=, from an Ask Murmur source) moves the player there once it knows the
  // duration; no autoplay: the clinician presses play.
  const [search] = useSearchParams();
  const startAt = seekSecondsFrom(search);
  const hasPlayer = Boolean(audioUrl) && !RECORDING.has(visit.status);
  useEffect(() => {
    const audio = player.current;
    if (startAt === null || !audio || !hasPlayer) return;
    const apply = () => {
      audio.currentTime = startAt;
    };
    if (audio.readyState >= 1) apply();
    else audio.addEventListener("loadedmetadata", apply, { once: true });
    return () => audio.removeEventListener("loadedmetadata", apply);
  }, [startAt, hasPlayer]);
  return (
    <article data-testid="visit" data-status={visit.status}>
      <header>
        <h2>
          {visit.patient.display_name}
          {visit.title ? ` — ${visit.title}` : ""}
        </h2>
        <p>
          {t(`visits.languages.${visit.language}`)} · <span data-testid="visit-status">{t(`visits.status.${visit.status}`)}</span>
        </p>
      </header>
      {RECORDING.has(visit.status) ? (
        <RecorderPanel
          visitId={visit.id}
          orgId={orgId}
          userId={userId}
          consented={Boolean(visit.consent_at)}
          onFinished={refresh}
        />
      ) : null}
      {waiting ? (
        <div>
          <small aria-live="polite">
            {progress === null
              ? t("visits.progress.waiting")
              : t("visits.progress.percent", { percent: Math.round(progress * 100) })}
          </small>
          <progress data-testid="visit-progress" aria-label={t("visits.transcribing")} max={1} value={progress ?? undefined} />
        </div>
      ) : null}
      {visit.status === "failed" && visit.failure ? (
        <p role="alert" data-code={visit.failure.code}>
          {t(`visits.failures.${visit.failure.code}`, { defaultValue: t("visits.failures.other") })}
          {visit.failure.reason ? ` (${visit.failure.reason})` : ""}
        </p>
      ) : null}
      {audioUrl && !RECORDING.has(visit.status) ? (
        // biome-ignore lint/a11y/useMediaCaption: the transcript below is the recording's text.
        <audio
          ref={player}
          controls
          preload="metadata"
          src={audioUrl}
          data-testid="visit-audio"
          data-start={startAt ?? undefined}
        >
          <a href={audioUrl}>{t("visits.player.download")}</a>
        </audio>
      ) : null}
      {visit.transcription ? (
        <TranscriptPanel
          visitId={visit.id}
          transcription={visit.transcription}
          panel={transcript}
          audioUrl={audioUrl}
          onSeek={seek}
          error={error}
        />
      ) : null}
      {transcript.canRerun && hasAudio && !waiting && !RECORDING.has(visit.status) ? <RerunButton visitId={visit.id} /> : null}
    </article>
  );
}
