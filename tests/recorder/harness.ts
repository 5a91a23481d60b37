// A whole recorder runtime (store, queue, recorder, locks) on fakes: one "tab" per harness. Tabs made
// with the same storage and lock registry share a browser profile.
import type { AudioContextLike } from "#app/services/recorder/level-meter.ts";
import { createRecorderRuntime } from "#app/services/recorder/runtime.ts";
import { createMemoryStorage, type MemoryStorage } from "#app/services/recorder/storage-port.ts";
import {
  createFakeServer,
  createFakeWakeLock,
  createLockRegistry,
  FakeDocument,
  FakeMediaRecorder,
  type FakeServer,
  FakeStream,
  randomBytes,
  recordingTimers,
  subtle,
} from "./fakes.ts";

export interface TabOptions {
  storage?: MemoryStorage;
  server?: FakeServer;
  locks?: ReturnType<typeof createLockRegistry>;
  supportsOpus?: boolean;
  /** getUserMedia fails with this DOMException name. */
  denyMicrophone?: string;
  /** Samples every analyser read returns (for the level meter). */
  samples?: number[];
}

export function openTab(options: TabOptions = {}) {
  const storage = options.storage ?? createMemoryStorage();
  const server = options.server ?? createFakeServer();
  const locks = options.locks ?? createLockRegistry();
  const doc = new FakeDocument();
  const wake = createFakeWakeLock();
  const timers = recordingTimers();
  const streams: FakeStream[] = [];
  const recorders: FakeMediaRecorder[] = [];
  const recorderOptions: { mimeType?: string }[] = [];
  const deviceChange = new EventTarget();
  const audio = { samples: options.samples ?? [0], contexts: 0, closed: 0 };
  const createAudioContext = (): AudioContextLike => {
    audio.contexts++;
    return {
      createMediaStreamSource: () => ({ connect: () => undefined, disconnect: () => undefined }),
      createAnalyser: () => ({
        fftSize: 0,
        getFloatTimeDomainData(array: Float32Array<ArrayBuffer>) {
          for (let i = 0; i < array.length; i++) array[i] = audio.samples[i % audio.samples.length] ?? 0;
        },
      }),
      resume: async () => undefined,
      close: async () => {
        audio.closed++;
      },
    };
  };
  const runtime = createRecorderRuntime({
    storage,
    subtle,
    randomBytes,
    fetch: server.fetch,
    timers,
    random: () => 0.5,
    isOnline: () => !server.offline,
    locks: locks.manager(),
    media: {
      async getUserMedia() {
        if (options.denyMicrophone) throw Object.assign(new Error("denied"), { name: options.denyMicrophone });
        const stream = new FakeStream();
        streams.push(stream);
        return stream;
      },
      addEventListener: (type, listener) => deviceChange.addEventListener(type, listener),
      removeEventListener: (type, listener) => deviceChange.removeEventListener(type, listener),
    },
    createMediaRecorder(stream, opts) {
      recorderOptions.push(opts);
      const recorder = new FakeMediaRecorder(stream as FakeStream, opts.mimeType ?? "audio/mp4");
      recorders.push(recorder);
      return recorder;
    },
    isTypeSupported: (mimeType) => (options.supportsOpus ?? true) && mimeType === "audio/webm;codecs=opus",
    createAudioContext,
    wakeLock: wake,
    document: doc,
  });
  return {
    runtime,
    storage,
    server,
    locks,
    doc,
    wake,
    timers,
    streams,
    recorders,
    recorderOptions,
    audio,
    deviceChange,
    /** The MediaRecorder of the current segment. */
    get media(): FakeMediaRecorder {
      const last = recorders.at(-1);
      if (!last) throw new Error("no MediaRecorder yet");
      return last;
    },
  };
}

export type Tab = ReturnType<typeof openTab>;
