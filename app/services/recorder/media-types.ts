/**
 * The browser media APIs the recorder uses, typed structurally so tests can drive fakes in Node and
 * the browser runtime (browser-runtime.ts) can pass the real objects.
 */
export type TrackEventName = "ended" | "mute" | "unmute";

export interface MediaTrackLike {
  readonly readyState: MediaStreamTrackState;
  readonly muted: boolean;
  stop(): void;
  addEventListener(type: TrackEventName, listener: () => void): void;
  removeEventListener(type: TrackEventName, listener: () => void): void;
}

export interface MediaStreamLike {
  getAudioTracks(): MediaTrackLike[];
  getTracks(): MediaTrackLike[];
}

export interface MediaDevicesLike {
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStreamLike>;
  addEventListener?(type: "devicechange", listener: () => void): void;
  removeEventListener?(type: "devicechange", listener: () => void): void;
}

export interface BlobLike {
  readonly size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export type MediaRecorderEventName = "dataavailable" | "stop" | "error";

export interface MediaRecorderLike {
  readonly state: RecordingState;
  readonly mimeType: string;
  start(timeslice: number): void;
  stop(): void;
  pause(): void;
  resume(): void;
  requestData(): void;
  addEventListener(type: "dataavailable", listener: (event: { data: BlobLike }) => void): void;
  addEventListener(type: "stop" | "error", listener: () => void): void;
}

export interface DocumentLike {
  readonly visibilityState: DocumentVisibilityState;
  addEventListener(type: "visibilitychange", listener: () => void): void;
  removeEventListener(type: "visibilitychange", listener: () => void): void;
}
