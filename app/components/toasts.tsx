import { type ComponentType, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ExternalToast, ToasterProps } from "sonner";
import { RECORDING_TOAST_DEFAULT_MS, RECORDING_TOAST_EVENT, SESSION_EXPIRED_TOAST_MS } from "#app/utils/constants.ts";

export interface RecordingToastDetail {
  message: string;
  duration?: number;
}

let sonnerModule: Promise<typeof import("sonner")> | undefined;

/**
 * sonner is fetched after hydration, never before: it is about 9.6 KB gzip that every page (and
 * /login's 150 KB budget, bench/web) would otherwise wait for, and no page shows a toast on first
 * paint. A toast made before the toaster mounts is not lost: sonner replays its active toasts to
 * a toaster when it subscribes.
 */
export function loadSonner(): Promise<typeof import("sonner")> {
  sonnerModule ??= import("sonner");
  return sonnerModule;
}

/** Shows a toast once sonner is loaded; a chunk that fails to load (a new build) shows nothing. */
export function showToast(message: string, options?: ExternalToast, kind: "default" | "error" = "default"): void {
  loadSonner().then(
    ({ toast }) => (kind === "error" ? toast.error(message, options) : toast(message, options)),
    () => {},
  );
}

/** Opens the recording toast from anywhere, e.g. the recorder's upload queue (SPEC §2). */
export function emitRecordingToast(detail: RecordingToastDetail): void {
  window.dispatchEvent(new CustomEvent<RecordingToastDetail>(RECORDING_TOAST_EVENT, { detail }));
}

/** SPEC §2, §8: closes itself after 7 s and has a close button. */
export function showSessionExpiredToast(message: string): void {
  showToast(message, { id: "session-expired", duration: SESSION_EXPIRED_TOAST_MS, closeButton: true }, "error");
}

export function AppToaster() {
  const { t } = useTranslation("common");
  const [Toaster, setToaster] = useState<ComponentType<ToasterProps> | null>(null);
  useEffect(() => {
    let live = true;
    loadSonner().then(
      (sonner) => {
        if (live) setToaster(() => sonner.Toaster);
      },
      () => {},
    );
    const onRecording = (event: Event) => {
      const detail = (event as CustomEvent<RecordingToastDetail>).detail;
      if (!detail?.message) return;
      showToast(detail.message, { duration: detail.duration ?? RECORDING_TOAST_DEFAULT_MS, closeButton: true });
    };
    window.addEventListener(RECORDING_TOAST_EVENT, onRecording);
    return () => {
      live = false;
      window.removeEventListener(RECORDING_TOAST_EVENT, onRecording);
    };
  }, []);
  return Toaster ? <Toaster position="top-center" closeButton containerAriaLabel={t("toasts.region")} /> : null;
}
