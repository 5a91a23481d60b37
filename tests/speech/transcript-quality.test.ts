import { describe, expect, it } from "vitest";
import { transcriptQuality } from "#app/services/visits/transcript-quality.ts";

// Issue 27 "Transcript quality, told honestly": the tier follows what the engine knows.
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");

describe("transcript quality", () => {
  it("a person's text (import, edit) is good; nothing heard is poor", () => {
    expect(transcriptQuality({ source: "import", engine: "import", text: "Hello.", segments: [] })).toEqual({
      tier: "good",
      score: 1,
      reasons: [],
    });
    expect(transcriptQuality({ source: "engine", engine: "whisper", text: "", segments: [] })).toMatchObject({
      tier: "poor",
      reasons: ["empty"],
    });
  });

  it("confident words at a speaking rate are good; many unsure words are poor", () => {
    const confident = [{ start: 0, end: 4, text: words(10), confidence: Array(10).fill(0.95) }];
    expect(transcriptQuality({ source: "engine", engine: "whisper", text: words(10), segments: confident }).tier).toBe("good");
    const unsure = [{ start: 0, end: 4, text: words(10), confidence: [0.9, 0.3, 0.2, 0.4, 0.1, 0.95, 0.3, 0.2, 0.45, 0.9] }];
    const poor = transcriptQuality({ source: "engine", engine: "whisper", text: words(10), segments: unsure });
    expect(poor.tier).toBe("poor");
    expect(poor.reasons).toEqual(expect.arrayContaining(["low_confidence", "many_unsure_words"]));
  });

  it("the basic embedded engine, odd speech rates and long silences lower the tier", () => {
    const slow = [
      { start: 0, end: 10, text: "one", confidence: [0.99] },
      { start: 60, end: 70, text: "two", confidence: [0.99] },
    ];
    const q = transcriptQuality({ source: "engine", engine: "pocketsphinx", text: "one two", segments: slow });
    expect(q.reasons).toEqual(["speech_rate", "silence", "basic_engine"]);
    expect(q.tier).toBe("poor");
    const some = [{ start: 0, end: 6, text: words(15), confidence: Array(15).fill(0.85) }];
    expect(transcriptQuality({ source: "engine", engine: "pocketsphinx", text: words(15), segments: some })).toMatchObject({
      tier: "check",
      reasons: ["basic_engine"],
    });
  });
});
