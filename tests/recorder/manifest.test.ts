import { describe, expect, it } from "vitest";
import { manifestOf } from "#app/services/recorder/manifest.ts";
import type { SessionRecord } from "#app/services/recorder/types.ts";

const session = (patch: Partial<SessionRecord>): SessionRecord => ({
  key: "finalized_recording_v",
  visitId: "v",
  orgId: "o",
  userId: "u",
  status: "finalized",
  nextSeq: 7,
  startedAt: 0,
  updatedAt: 0,
  durationMs: 30_000,
  bytes: 1234,
  segments: [{ firstSeq: 0, mimeType: "audio/webm;codecs=opus", startMs: 0 }],
  finalizedAt: 1,
  failure: null,
  ...patch,
});

describe("finish manifest", () => {
  it("cuts stretches at pauses and at recorder restarts after a reload, in order, without empty ones", () => {
    const manifest = manifestOf(
      session({
        breaksMs: [20_000, 8000, 8000, 30_000],
        segments: [
          { firstSeq: 0, mimeType: "audio/webm;codecs=opus", startMs: 0 },
          { firstSeq: 4, mimeType: "audio/webm;codecs=opus", startMs: 12_500 },
        ],
      }),
    );
    expect(manifest).toEqual({
      chunks: 7,
      bytes: 1234,
      duration_ms: 30_000,
      mime_type: "audio/webm;codecs=opus",
      segments: [
        { start_ms: 0, end_ms: 8000 },
        { start_ms: 8000, end_ms: 12_500 },
        { start_ms: 12_500, end_ms: 20_000 },
        { start_ms: 20_000, end_ms: 30_000 },
      ],
    });
  });

  it("an older session without breaks is one stretch; an empty one has none", () => {
    expect(manifestOf(session({ segments: [{ firstSeq: 0, mimeType: "" }] })).segments).toEqual([
      { start_ms: 0, end_ms: 30_000 },
    ]);
    expect(manifestOf(session({ durationMs: 0 })).segments).toEqual([]);
  });

  it("sends only a plain audio type, so a browser's odd label never blocks the finish (issue 10)", () => {
    const typed = (mimeType: string) => manifestOf(session({ segments: [{ firstSeq: 0, mimeType, startMs: 0 }] }));
    expect(typed("audio/ogg; codecs=opus").mime_type).toBe("audio/ogg;codecs=opus");
    expect(typed("video/webm;codecs=opus")).not.toHaveProperty("mime_type");
    expect(typed("audio/wav; x=1, text/html")).not.toHaveProperty("mime_type");
  });
});
