import { useTranslation } from "react-i18next";
import type { UploadState, VisitUploadState } from "#app/services/recorder/use-recorder.ts";
import { secondsUntil } from "./format.ts";

/**
 * One line about this visit's audio on its way to the server, e.g. "3 chunks waiting — offline, retrying
 * in 8 s". Not a live region: the countdown changes every second; state changes that matter (offline,
 * refusals) are announced by the panel's alerts and the recording toasts.
 */
export function UploadStatus({ upload, visit, now }: { upload: UploadState; visit: VisitUploadState | null; now: number }) {
  const { t } = useTranslation("recorder");
  if (!visit) return null;
  const seconds = upload.nextRetryAt === null ? null : secondsUntil(upload.nextRetryAt, now);
  let text: string;
  if (visit.pendingChunks > 0) {
    const phase = visit.failure
      ? t("upload.error")
      : upload.phase === "offline"
        ? seconds === null
          ? t("upload.offline")
          : t("upload.offlineRetry", { seconds })
        : upload.phase === "retrying"
          ? seconds
            ? t("upload.retry", { seconds })
            : t("upload.retryNow")
          : upload.phase === "unauthorized"
            ? t("upload.unauthorized")
            : t("upload.sending");
    text = `${t("upload.waiting", { count: visit.pendingChunks })} — ${phase}`;
  } else if (visit.finishing && !visit.failure) {
    text = upload.phase === "offline" ? t("upload.offlineTranscription") : t("upload.finishing");
  } else if (!visit.failure) {
    text = t("upload.allSent");
  } else {
    return null;
  }
  return (
    <p className="recorder-upload" data-testid="upload-status" data-phase={upload.phase}>
      <small>{text}</small>
    </p>
  );
}
