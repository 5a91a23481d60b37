import { getAuthStore } from "#app/services/auth-client/use-auth-store.ts";
import { bindQueueToWindow } from "./connectivity.ts";
import { installBeforeUnloadGuard, registerRecorderAuthHooks } from "./guards.ts";
import { openIdbStorage } from "./idb-storage.ts";
import type { AudioContextLike } from "./level-meter.ts";
import type { MediaStreamLike } from "./media-types.ts";
import { createRecorderRuntime, type RecorderRuntime } from "./runtime.ts";
import { createMemoryStorage, type RecorderStorage } from "./storage-port.ts";

const logger = { warn: (message: string, details?: Record<string, unknown>) => console.warn(message, details ?? "") };

/** IndexedDB when the browser lets us; memory otherwise, and the panel says the audio is not protected. */
async function openStorage(): Promise<RecorderStorage> {
  try {
    if (typeof indexedDB === "undefined") throw new Error("IndexedDB unavailable");
    return await openIdbStorage({ indexedDB, IDBKeyRange });
  } catch (error) {
    logger.warn("recorder: IndexedDB unavailable, audio kept in memory only", { error: String(error) });
    return createMemoryStorage();
  }
}

function audioContextFactory(): (() => AudioContextLike) | null {
  if (typeof AudioContext === "undefined") return null;
  return () => {
    const context = new AudioContext();
    return {
      createMediaStreamSource(stream: MediaStreamLike) {
        const source = context.createMediaStreamSource(stream as MediaStream);
        return {
          // Only analysers made by createAnalyser below are ever connected.
          connect: (node) => source.connect(node as AnalyserNode),
          disconnect: () => source.disconnect(),
        };
      },
      createAnalyser: () => context.createAnalyser(),
      resume: () => context.resume(),
      close: () => context.close(),
    };
  };
}

let runtime: Promise<RecorderRuntime> | null = null;
let authHooksRegistered = false;

/**
 * The page's recorder runtime, created on first use in the browser (never on the server): real
 * IndexedDB, WebCrypto, fetch (already tagged with x-org-id by the org store, though each chunk names
 * its own organisation), MediaRecorder, Web Audio, Wake Lock and Web Locks, plus the window bindings —
 * online/offline/visibility/reconnect wake the queue, and leaving warns while audio is unsent.
 */
export function getRecorderRuntime(): Promise<RecorderRuntime> {
  runtime ??= (async () => {
    const storage = await openStorage();
    const created = createRecorderRuntime({
      storage,
      subtle: window.crypto.subtle,
      randomBytes: (length) => window.crypto.getRandomValues(new Uint8Array(length)),
      fetch: (input, init) => window.fetch(input, init),
      timers: {
        setTimeout: (callback, ms) => window.setTimeout(callback, ms),
        clearTimeout: (handle) => window.clearTimeout(handle as number),
        now: () => Date.now(),
      },
      random: Math.random,
      isOnline: () => navigator.onLine,
      locks: navigator.locks ?? null,
      media: navigator.mediaDevices ?? null,
      createMediaRecorder: (stream, options) => new MediaRecorder(stream as MediaStream, options),
      isTypeSupported: (mimeType) => typeof MediaRecorder !== "undefined" && MediaRecorder.isTypeSupported(mimeType),
      createAudioContext: audioContextFactory(),
      wakeLock: navigator.wakeLock ?? null,
      document,
      logger,
    });
    bindQueueToWindow(created.queue, window, document);
    installBeforeUnloadGuard(window, created);
    return created;
  })();
  return runtime;
}

/** Registers the recorder's hooks with the auth store once it exists (it starts after hydration). */
export function registerAuthHooksOnce(recorderRuntime: RecorderRuntime): void {
  if (authHooksRegistered) return;
  authHooksRegistered = registerRecorderAuthHooks(getAuthStore(), recorderRuntime);
}

export function isRecordingSupported(): boolean {
  return typeof window !== "undefined" && typeof MediaRecorder !== "undefined" && !!navigator.mediaDevices?.getUserMedia;
}
