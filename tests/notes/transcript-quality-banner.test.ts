import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { OmissionList } from "#app/components/notes/omission-list.tsx";
import { TranscriptQualityBanner } from "#app/components/notes/transcript-quality-banner.tsx";
import { renderAt, textOf } from "#tests/billing/render.ts";

// Issue 27: a poor transcript is an alert that says what to do, in the page's language; a note
// drafted from it opens with the warning; the omission panel does not claim "Nothing left out".
describe("transcript quality on the page", () => {
  const poor = { tier: "poor" as const, score: 0.3, reasons: ["many_unsure_words" as const, "basic_engine" as const] };

  it("a poor transcript is an alert with its reasons and what to do, translated", async () => {
    const en = await renderAt("/transcribing", createElement(TranscriptQualityBanner, { quality: poor }));
    expect(en).toContain('role="alert"');
    expect(en).toContain('data-tier="poor"');
    expect(textOf(en)).toContain("This transcript is poor");
    expect(textOf(en)).toContain("A large share of words are marked unsure.");
    expect(textOf(en)).toContain("use a better speech engine");
    const fr = await renderAt("/fr/transcribing", createElement(TranscriptQualityBanner, { quality: poor }));
    expect(textOf(fr)).toContain("Cette transcription est de mauvaise qualité");
    const note = await renderAt("/es/coding", createElement(TranscriptQualityBanner, { quality: poor, note: true }));
    expect(textOf(note)).toContain("Atención: esta nota se redactó a partir de una transcripción deficiente.");
  });

  it("a good transcript shows nothing; a doubtful one is a status, not an alert", async () => {
    expect(
      await renderAt("/coding", createElement(TranscriptQualityBanner, { quality: { tier: "good", score: 0.9, reasons: [] } })),
    ).not.toContain("transcript-quality-banner");
    const check = await renderAt(
      "/coding",
      createElement(TranscriptQualityBanner, { quality: { tier: "check", score: 0.7, reasons: [] } }),
    );
    expect(check).toContain('role="status"');
  });

  it("the omission panel says it cannot tell on a transcript that is not good", async () => {
    const unreliable = await renderAt(
      "/coding",
      createElement(OmissionList, { omissions: [], language: "en", reliable: false, onPlay: () => {} }),
    );
    expect(textOf(unreliable)).toContain("Cannot tell what was left out");
    expect(textOf(unreliable)).not.toContain("Nothing left out");
    const reliable = await renderAt("/coding", createElement(OmissionList, { omissions: [], language: "en", onPlay: () => {} }));
    expect(textOf(reliable)).toContain("Nothing left out");
  });
});
