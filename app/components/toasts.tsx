import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Toaster, toast } from "sonner";
import { RECORDING_TOAST_DEFAULT_MS, RECORDING_TOAST_EVENT, SESSION_EXPIRED_TOAST_MS } from "#app/utils/constants.ts";

export interface RecordingToastDetail {
  message: string;
  duration?: number;
}

/** Opens the recording toast from anywhere, e.g. the recorder's upload queue (SPEC §2). */
export function emitRecordingToast(detail: RecordingToastDetail): void {
  window.dispatchEvent(new CustomEvent<RecordingToastDetail>(RECORDING_TOAST_EVENT, { detail }));
}

/** SPEC §2, §8: closes itself after 7 s and has a close button. */
export function showSessionExpiredToast(message: string): void {
  toast.error(message, { id: "session-expired", duration: SESSION_EXPIRED_TOAST_MS, closeButton: true });
}

export function AppToaster() {
  const { t } = useTranslation("common");
  useEffect(() => {
    const onRecording = (event: Event) => {
      const detail = (event as CustomEvent<RecordingToastDetail>).detail;
      if (!detail?.message) return;
      toast(detail.message, { duration: detail.duration ?? RECORDING_TOAST_DEFAULT_MS, closeButton: true });
    };
    window.addEventListener(RECORDING_TOAST_EVENT, onRecording);
    return () => window.removeEventListener(RECORDING_TOAST_EVENT, onRecording);
  }, []);
  return <Toaster position="top-center" closeButton containerAriaLabel={t("toasts.region")} />;
}
