import { useTranslation } from "react-i18next";
import type { RecorderController } from "#app/services/recorder/use-recorder.ts";

/**
 * Start (only once consent is confirmed), Pause/Resume and Stop. An interrupted recording offers to
 * continue it or to finish it as it is.
 */
export function RecorderControls({ controller, consented }: { controller: RecorderController; consented: boolean }) {
  const { t } = useTranslation("recorder");
  const { recorder, session } = controller;
  const { status } = recorder;
  const busy = status === "starting" || status === "stopping";

  if (status === "recording" || status === "paused" || busy) {
    return (
      <div className="grid recorder-controls" aria-busy={busy}>
        {status === "paused" ? (
          <button type="button" onClick={() => void controller.resume()} disabled={busy} data-testid="recorder-resume">
            {t("actions.resume")}
          </button>
        ) : (
          <button type="button" className="secondary" onClick={controller.pause} disabled={busy} data-testid="recorder-pause">
            {t("actions.pause")}
          </button>
        )}
        <button
          type="button"
          className="contrast"
          onClick={() => void controller.stop()}
          disabled={busy}
          data-testid="recorder-stop"
        >
          {t("actions.stop")}
        </button>
      </div>
    );
  }
  if (
    controller.finished ||
    status === "stopped" ||
    (session && session.status !== "recording" && session.status !== "pending_save")
  )
    return null;

  const canStart = controller.ready && controller.supported && consented && !controller.otherVisitActive;
  const interrupted = session?.status === "pending_save";
  return (
    <div className="grid recorder-controls">
      <button type="button" onClick={() => void controller.start()} disabled={!canStart} data-testid="recorder-start">
        {interrupted ? t("actions.continue") : t("actions.start")}
      </button>
      {interrupted && (
        <button
          type="button"
          className="secondary"
          onClick={() => void controller.finishInterrupted()}
          disabled={!controller.ready || controller.otherVisitActive}
          data-testid="recorder-finish"
        >
          {t("actions.finish")}
        </button>
      )}
    </div>
  );
}
