import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useBlocker } from "react-router";
import { type RecorderController, type UseRecorderOptions, useRecorder } from "#app/services/recorder/use-recorder.ts";
import { elapsedDateTime, formatElapsed } from "./format.ts";
import { LevelMeter } from "./level-meter.tsx";
import { RecorderControls } from "./recorder-controls.tsx";
import { RecorderNotices } from "./recorder-notices.tsx";
import { UploadStatus } from "./upload-status.tsx";

export interface RecorderPanelProps extends UseRecorderOptions {
  /** The patient's consent for this visit is recorded (issue 5: required before recording starts). */
  consented: boolean;
}

export interface LeavePrompt {
  stay(): void;
  stopAndLeave(): void;
}

/** The current time, refreshed every second while `active` (for the retry countdown). */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const handle = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(handle);
  }, [active]);
  return now;
}

/**
 * The recording panel of the /transcribing page (issue 5). In-app navigation away from a running
 * recording asks first (Stop and leave, or Stay); leaving the site is guarded by beforeunload.
 */
export function RecorderPanel({ consented, ...options }: RecorderPanelProps) {
  const controller = useRecorder(options);
  const { status } = controller.recorder;
  const active = status === "recording" || status === "paused" || status === "starting";
  const blocker = useBlocker(({ currentLocation, nextLocation }) => active && currentLocation.pathname !== nextLocation.pathname);
  const now = useNow(controller.upload.nextRetryAt !== null);
  const leave: LeavePrompt | null =
    blocker.state === "blocked"
      ? {
          stay: () => blocker.reset(),
          stopAndLeave: () => {
            void controller.stop().then(() => blocker.proceed());
          },
        }
      : null;
  return <RecorderPanelView controller={controller} consented={consented} now={now} leave={leave} />;
}

/** The panel's markup from a controller's state, without effects (server render and tests use it as is). */
export function RecorderPanelView({
  controller,
  consented,
  now,
  leave = null,
}: {
  controller: RecorderController;
  consented: boolean;
  now: number;
  leave?: LeavePrompt | null;
}) {
  const { t } = useTranslation("recorder");
  const { recorder } = controller;
  const elapsedMs = recorder.status === "idle" && controller.session ? controller.session.durationMs : recorder.elapsedMs;
  return (
    <article
      className="recorder-panel"
      aria-labelledby="recorder-title"
      data-testid="recorder-panel"
      data-status={recorder.status}
    >
      <header>
        <h2 id="recorder-title">{t("panel.title")}</h2>
      </header>
      <RecorderNotices controller={controller} />
      <p data-testid="recorder-status">
        {!controller.ready ? t("panel.preparing") : controller.finished ? t("toasts.finished") : t(`status.${recorder.status}`)}{" "}
        <span>
          {t("panel.elapsed")}{" "}
          <time dateTime={elapsedDateTime(elapsedMs)} data-testid="recorder-elapsed">
            {formatElapsed(elapsedMs)}
          </time>
        </span>
      </p>
      <LevelMeter level={recorder.level} />
      {!consented && recorder.status === "idle" && (
        <p>
          <small data-testid="recorder-consent">{t("consent.required")}</small>
        </p>
      )}
      <RecorderControls controller={controller} consented={consented} />
      <UploadStatus upload={controller.upload} visit={controller.visitUpload} now={now} />
      {leave && (
        <dialog open aria-labelledby="recorder-leave-title" data-testid="recorder-leave">
          <article>
            <h3 id="recorder-leave-title">{t("leave.title")}</h3>
            <p>{t("leave.body")}</p>
            <footer>
              <button type="button" className="secondary" onClick={leave.stay}>
                {t("leave.stay")}
              </button>
              <button type="button" onClick={leave.stopAndLeave}>
                {t("leave.stopAndLeave")}
              </button>
            </footer>
          </article>
        </dialog>
      )}
    </article>
  );
}
