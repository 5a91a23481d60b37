import { REFRESHED_DATA_EVENT } from "#app/services/auth-client/constants.ts";
import { RECONNECT_EVENT } from "./constants.ts";
import type { UploadQueue } from "./upload-queue.ts";

export interface WindowEventsLike {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
}

export interface VisibilitySource extends WindowEventsLike {
  readonly visibilityState: DocumentVisibilityState;
}

/**
 * Wakes the upload queue when the connection may be back: the browser's online/offline events, the tab
 * becoming visible, the auth client's "murmur:reconnect" (SPEC §4 Tab visibility: it has just pinged
 * the server from /transcribing; detail { online }) and "murmur:refreshed-data" (the session was just
 * refreshed, so uploads refused with 401 may go through now).
 */
export function bindQueueToWindow(
  queue: Pick<UploadQueue, "handleOnline" | "handleOffline" | "handleVisible" | "handleReconnect">,
  win: WindowEventsLike,
  doc: VisibilitySource,
): () => void {
  const onOnline = () => queue.handleOnline();
  const onOffline = () => queue.handleOffline();
  const onVisibility = () => {
    if (doc.visibilityState === "visible") queue.handleVisible();
  };
  const onReconnect = (event: Event) => {
    const detail = (event as CustomEvent<{ online?: boolean } | undefined>).detail;
    queue.handleReconnect(detail?.online === true);
  };
  win.addEventListener("online", onOnline);
  win.addEventListener("offline", onOffline);
  win.addEventListener(RECONNECT_EVENT, onReconnect);
  win.addEventListener(REFRESHED_DATA_EVENT, onVisibility);
  doc.addEventListener("visibilitychange", onVisibility);
  return () => {
    win.removeEventListener("online", onOnline);
    win.removeEventListener("offline", onOffline);
    win.removeEventListener(RECONNECT_EVENT, onReconnect);
    win.removeEventListener(REFRESHED_DATA_EVENT, onVisibility);
    doc.removeEventListener("visibilitychange", onVisibility);
  };
}
