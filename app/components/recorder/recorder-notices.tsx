import { useTranslation } from "react-i18next";
import type { RecorderController } from "#app/services/recorder/use-recorder.ts";
import { formatElapsed } from "./format.ts";

const KNOWN_FAILURES = new Set(["chunk_conflict", "chunks_missing", "visit_closed", "trial_ended", "local_chunk_unreadable"]);
/** Refusals the user can do something about (renew, sign in again…) before trying again. */
const RETRYABLE_FAILURES = new Set(["trial_ended"]);

/** Alerts and notices above the controls: what went wrong, what was recovered, what to do next. */
export function RecorderNotices({ controller }: { controller: RecorderController }) {
  const { t } = useTranslation("recorder");
  const { recorder, session, recovery, visitUpload } = controller;
  const failure = visitUpload?.failure ?? session?.failure ?? null;
  const idle = recorder.status === "idle" || recorder.status === "error";
  const sending = recovery ? new Set([...recovery.uploading.map((item) => item.visitId), ...recovery.finishing]).size : 0;
  return (
    <>
      {!controller.supported && <p role="alert">{t("errors.unsupported")}</p>}
      {!controller.persistent && <p role="alert">{t("notProtected")}</p>}
      {controller.otherVisitActive && <p role="alert">{t("otherVisit")}</p>}
      {recorder.error && (
        <p role="alert" data-testid="recorder-error" data-code={recorder.error}>
          {t(`errors.${recorder.error}`)}
        </p>
      )}
      {recorder.alert && (
        <div role="alert" data-testid="recorder-alert" data-code={recorder.alert}>
          <p>{t(`alerts.${recorder.alert}`)}</p>
          {recorder.alert === "microphone_muted" && (
            <button type="button" className="secondary outline" onClick={controller.dismissAlert}>
              {t("actions.dismiss")}
            </button>
          )}
        </div>
      )}
      {failure && (
        <div role="alert" data-testid="recorder-failure" data-code={failure.code}>
          <p>{KNOWN_FAILURES.has(failure.code) ? t(`failures.${failure.code}`) : t("failures.other", { code: failure.code })}</p>
          {!KNOWN_FAILURES.has(failure.code) || RETRYABLE_FAILURES.has(failure.code) ? (
            <button type="button" className="secondary" onClick={() => void controller.retryUpload()}>
              {t("actions.retry")}
            </button>
          ) : null}
        </div>
      )}
      {idle && session?.status === "pending_save" && (
        <p data-testid="recorder-interrupted">{t("interrupted", { elapsed: formatElapsed(session.durationMs) })}</p>
      )}
      {sending > 0 && (
        <p data-testid="recorder-recovered">
          <small>{t("recovery.toast", { count: sending })}</small>
        </p>
      )}
    </>
  );
}
