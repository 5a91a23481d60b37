import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { TranscriptSegments } from "#app/components/visits/transcript-segments.tsx";
import { getInstance, i18nextMiddleware } from "#app/middleware/i18next.server.ts";
import { LOW_CONFIDENCE, markedWords, segmentConfidence, validConfidence } from "#app/services/speech/confidence.ts";
import { createEngineRegistry, type SpeechEngine } from "#app/services/speech/engine.ts";
import { parsePocketsphinxOutput } from "#app/services/speech/pocketsphinx-output.ts";
import { createTranscribePort } from "#app/services/speech/transcribe-file.server.ts";
import { wavHeader } from "#app/services/speech/wav.server.ts";
import { createTestContext } from "#tests/setup/context.ts";
import { withTempDir } from "./synth.ts";

/** Renders the transcript view's segments as the server does, in the request's language. */
async function renderSegments(path: string, segments: { start: number; end: number; text: string; confidence?: number[] }[]) {
  const context = createTestContext();
  let html = "";
  await i18nextMiddleware({ request: new Request(`http://murmur.test${path}`), context, params: {} } as never, async () => {
    html = renderToString(
      createElement(
        I18nextProvider,
        { i18n: getInstance(context) },
        createElement(TranscriptSegments, { segments, audioUrl: null, onSeek: () => {} }),
      ),
    );
    return new Response();
  });
  return html;
}

// Issue 15 "Low-confidence words … marked in the transcript view": pocketsphinx's per-word
// posteriors travel from its output to the stored segments, one value per word of the text.

const POCKETSPHINX_OUTPUT = [
  "take lisinopril daily",
  "<s> 0.000 0.140 0.999",
  "take 0.150 0.500 0.981",
  "lisinopril(2) 0.510 1.200 0.214",
  "<sil> 1.210 1.300 1.000",
  "daily 1.310 1.700 0.770",
  "</s> 1.710 1.800 1.000",
].join("\n");

describe("word confidence", () => {
  it("comes from pocketsphinx's posteriors, one per word of the segment's text", () => {
    const [segment] = parsePocketsphinxOutput(POCKETSPHINX_OUTPUT);
    expect(segment?.text).toBe("take lisinopril daily");
    expect(segmentConfidence(segment?.text ?? "", segment?.words)).toEqual([0.981, 0.214, 0.77]);
    expect(markedWords("take lisinopril daily", [0.981, 0.214, 0.77]).map((w) => w.low)).toEqual([false, true, false]);
    expect(LOW_CONFIDENCE).toBeGreaterThan(0.214);
  });

  it("is left out when it cannot describe the text: missing values, other words, another count, out of range", () => {
    expect(segmentConfidence("a b", [{ word: "a", confidence: 0.5 }, { word: "b" }])).toBeUndefined();
    expect(
      segmentConfidence("a b", [
        { word: "a", confidence: 0.5 },
        { word: "c", confidence: 0.5 },
      ]),
    ).toBeUndefined();
    expect(segmentConfidence("a b", undefined)).toBeUndefined();
    expect(validConfidence("a b", [0.5])).toBeUndefined();
    expect(validConfidence("a b", [0.5, 1.5])).toBeUndefined();
    expect(validConfidence("a b", "0.5 0.5")).toBeUndefined();
    expect(validConfidence("a b", [0.5, 0.25])).toEqual([0.5, 0.25]);
    expect(markedWords("a b", undefined).some((w) => w.low)).toBe(false);
  });

  it("reaches the transcription job's result through the transcribe port", async () => {
    await withTempDir(async (dir) => {
      // A quiet tone: not silence, which the port refuses before decoding (issue 26).
      const pcm = Buffer.alloc(16_000 * 2 * 2);
      for (let i = 0; i < pcm.length / 2; i++)
        pcm.writeInt16LE(Math.round(2000 * Math.sin((2 * Math.PI * 440 * i) / 16_000)), i * 2);
      const wav = join(dir, "two-seconds.wav");
      await writeFile(wav, Buffer.concat([wavHeader(pcm.length, 16_000), pcm]));
      const engine: SpeechEngine = {
        id: "fixed",
        languages: ["en"],
        window: { windowSec: 30, overlapSec: 2 },
        supports: (language) => language === "en",
        transcribe: async () => ({
          text: "take lisinopril daily",
          segments: parsePocketsphinxOutput(POCKETSPHINX_OUTPUT),
          engine: "fixed",
          model: "m",
          language: "en",
        }),
      };
      const result = await createTranscribePort(createEngineRegistry([engine]))(wav, "en", {});
      expect(result.segments).toEqual([
        // One segment: too few voices to cluster, and none of its words leans to a role: not known.
        { start: 0.15, end: 1.7, text: "take lisinopril daily", confidence: [0.981, 0.214, 0.77], speaker: null },
      ]);
    });
  });

  it("marks low-confidence words in the transcript view, with a translated hint and legend", async () => {
    const segments = [
      { start: 0, end: 1.5, text: "take lisinopril daily", confidence: [0.981, 0.214, 0.77] },
      { start: 2, end: 3, text: "thank you" },
    ];
    const en = await renderSegments("/transcribing", segments);
    expect(en.match(/data-testid="low-confidence-word"/g)).toHaveLength(1);
    expect(en).toMatch(/<mark[^>]*title="low confidence: check this word against the recording"[^>]*>lisinopril/);
    expect(en).toContain('data-testid="low-confidence-legend"');
    const fr = await renderSegments("/fr/transcribing", segments);
    expect(fr).toContain("vérifiez ce mot");
    // Without confidences (an edit, an import, a hosted engine without them) nothing is marked.
    const plain = await renderSegments("/transcribing", [{ start: 2, end: 3, text: "thank you" }]);
    expect(plain).not.toContain("low-confidence");
  });
});
