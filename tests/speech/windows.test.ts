import { describe, expect, it } from "vitest";
import type { TranscriptSegment } from "#app/services/speech/engine.ts";
import { type AudioWindow, makeMonotonic, mergeWindowSegments, planWindows } from "#app/services/speech/windows.ts";

function segment(words: [string, number, number][]): TranscriptSegment {
  const first = words[0];
  const last = words.at(-1);
  if (!first || !last) throw new Error("empty segment");
  return {
    start: first[1],
    end: last[2],
    text: words.map(([w]) => w).join(" "),
    words: words.map(([word, start, end]) => ({ word, start, end })),
  };
}

describe("planWindows", () => {
  it("keeps short audio whole", () => {
    expect(planWindows(12.5, { windowSec: 30, overlapSec: 2 })).toEqual([{ index: 0, start: 0, end: 12.5, from: 0, to: 12.5 }]);
  });

  it("a window is final once the recording reaches its settlesAt, wherever the pauses fall", () => {
    const policy = { windowSec: 30, overlapSec: 2 };
    // A chooser that takes any point of its range, like quietestPoint on arbitrary audio; the
    // range's far end is the worst case for settling.
    for (const pick of [
      (_t: number, _min: number, max: number) => max,
      (_t: number, min: number) => min,
      (t: number) => t + 1.7,
    ]) {
      const final = planWindows(300, policy, pick);
      for (const window of final.slice(0, -1)) {
        expect(window.settlesAt).toBeGreaterThanOrEqual(window.end);
        // The recording as it was when this window settled plans the same window.
        const early = planWindows(window.settlesAt as number, policy, pick);
        expect(early[window.index]).toEqual(window);
      }
      expect(final.at(-1)?.settlesAt).toBeUndefined();
    }
  });

  it("covers long audio with windows that overlap by the policy and trusted spans that tile it", () => {
    const windows = planWindows(95, { windowSec: 30, overlapSec: 2 });
    expect(windows.map((w) => [w.start, w.end, w.from, w.to])).toEqual([
      [0, 30, 0, 29],
      [28, 58, 29, 57],
      [56, 86, 57, 85],
      [84, 95, 85, 95],
    ]);
  });

  it("moves each cut to where the chooser finds a pause, within its slack", () => {
    const pauses = [26.5, 60];
    const windows = planWindows(95, { windowSec: 30, overlapSec: 2 }, (target, min, max) => {
      const pause = pauses.find((p) => p >= min && p <= max);
      return pause ?? target;
    });
    expect(windows.map((w) => [w.from, w.to])).toEqual([
      [0, 26.5],
      [26.5, 60],
      [60, 85],
      [85, 95],
    ]);
    expect(windows[1]).toMatchObject({ start: 25.5, end: 61 });
    // A chooser that answers outside its range is clamped: no window grows without bound.
    const wild = planWindows(95, { windowSec: 30, overlapSec: 2 }, () => 1000);
    for (const w of wild) expect(w.end - w.start).toBeLessThanOrEqual(30 + 2 * 5 + 0.001);
  });

  it("refuses an overlap as long as the window", () => {
    expect(() => planWindows(100, { windowSec: 10, overlapSec: 10 })).toThrow(RangeError);
  });
});

describe("mergeWindowSegments", () => {
  const windows = planWindows(60, { windowSec: 32, overlapSec: 4 }); // [0,32] [28,60]: trust switches at 30 s
  const [w0, w1] = windows as [AudioWindow, AudioWindow];

  it("keeps each overlapping word once, from the window that heard it whole, with absolute times", () => {
    // Window 0 heard "probing" (29.2–29.8) whole and "depths" cut at its end; window 1 the reverse.
    const first = [
      segment([
        ["bleeding", 27.0, 27.5],
        ["on", 27.6, 27.8],
        ["probing", 29.2, 29.8],
        ["dep", 31.7, 32.0],
      ]),
    ];
    const second = [
      segment([
        ["bing", 0.0, 1.8],
        ["depths", 2.2, 2.8],
        ["are", 3.0, 3.2],
        ["three", 3.3, 3.6],
      ]),
    ];
    expect([w0.to, w1.from]).toEqual([30, 30]);
    const merged = mergeWindowSegments([
      { window: w0, segments: first },
      { window: w1, segments: second },
    ]);
    expect(merged.map((s) => s.text).join(" ")).toBe("bleeding on probing depths are three");
    expect(merged[1]?.start).toBe(30.2);
    expect(merged.flatMap((s) => s.words ?? []).map((w) => w.start)).toEqual([27, 27.6, 29.2, 30.2, 31, 31.3]);
  });

  it("assigns word-less segments by their midpoint", () => {
    const merged = mergeWindowSegments([
      {
        window: w0,
        segments: [
          { start: 20, end: 29, text: "kept from the first" },
          { start: 29.5, end: 31.5, text: "dropped" },
        ],
      },
      {
        window: w1,
        segments: [
          { start: 1.5, end: 3.5, text: "kept from the second" },
          { start: 0, end: 1, text: "cut" },
        ],
      },
    ]);
    expect(merged.map((s) => s.text)).toEqual(["kept from the first", "kept from the second"]);
  });
});

describe("makeMonotonic", () => {
  it("orders segments and never lets a start precede the previous end", () => {
    const out = makeMonotonic([
      { start: 5, end: 7, text: "b" },
      { start: 1, end: 5.5, text: "a" },
      { start: 6.8, end: 6.9, text: "c" },
    ]);
    expect(out.map((s) => [s.text, s.start, s.end])).toEqual([
      ["a", 1, 5.5],
      ["b", 5.5, 7],
      ["c", 7, 7],
    ]);
  });
});
