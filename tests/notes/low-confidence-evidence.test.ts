import i18next from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { lowConfidenceWordsFor } from "#app/components/notes/evidence.ts";
import { NoteSentences } from "#app/components/notes/note-sentences.tsx";
import { TranscriptPiecesContext } from "#app/components/notes/transcript-context.ts";
import { resources } from "#app/i18n/resources.server.ts";
import type { TranscriptPiece } from "#app/services/notes/model.ts";
import { transcriptPieces } from "#app/services/notes/transcript-pieces.ts";

// Issue 15 §3: the note's evidence panel says when a cited sentence rests on low-confidence words.
const pieces: TranscriptPiece[] = transcriptPieces({
  text: "",
  segments: [
    { start: 0, end: 3, text: "i take zenvaxor twice a day", confidence: [0.99, 0.9, 0.31, 0.95, 0.42, 0.97] },
    { start: 3, end: 6, text: "no chest pain", confidence: [0.99, 0.98, 0.97] },
    { start: 6, end: 9, text: "the cough is worse at night" },
  ],
});

describe("lowConfidenceWordsFor", () => {
  it("keeps confidences on the note's transcript pieces", () => {
    expect(pieces[0]?.confidence).toHaveLength(6);
    expect(pieces[2]?.confidence).toBeUndefined();
  });

  it("lists the unsure words inside the quoted words only when the quote is found", () => {
    expect(lowConfidenceWordsFor([{ start: 0, end: 3, quote: "take zenvaxor" }], pieces)).toEqual(["zenvaxor"]);
    expect(lowConfidenceWordsFor([{ start: 0, end: 3, quote: "twice a day" }], pieces)).toEqual(["a"]);
  });

  it("falls back to the whole overlapping piece when the quote is not in it", () => {
    expect(lowConfidenceWordsFor([{ start: 1, end: 2, quote: "medication twice daily" }], pieces)).toEqual(["zenvaxor", "a"]);
  });

  it("is empty for confident evidence, pieces without confidences and sentences without evidence", () => {
    expect(lowConfidenceWordsFor([{ start: 3, end: 6, quote: "no chest pain" }], pieces)).toEqual([]);
    expect(lowConfidenceWordsFor([{ start: 6, end: 9, quote: "cough" }], pieces)).toEqual([]);
    expect(lowConfidenceWordsFor([], pieces)).toEqual([]);
  });
});

describe("the note's sentences", () => {
  it.each(["en", "fr", "es"] as const)("badge a sentence resting on unsure words with those words (%s)", async (lng) => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng, resources, ns: ["notes"], defaultNS: "notes", interpolation: { escapeValue: false } });
    const sentences = [
      {
        text: "Takes zenvaxor twice daily.",
        source: "transcript" as const,
        supported: true,
        evidence: [{ start: 0, end: 3, quote: "take zenvaxor" }],
      },
      {
        text: "No chest pain.",
        source: "transcript" as const,
        supported: true,
        evidence: [{ start: 3, end: 6, quote: "no chest pain" }],
      },
    ];
    const html = renderToString(
      createElement(
        I18nextProvider,
        { i18n },
        createElement(
          TranscriptPiecesContext.Provider,
          { value: pieces },
          // A router: chart-read sentences link to the exam in the page's language.
          createElement(
            MemoryRouter,
            { initialEntries: [lng === "en" ? "/" : `/${lng}/`] },
            createElement(NoteSentences, { sentences: sentences as never, onHover: () => {}, onPlay: () => {} }),
          ),
        ),
      ),
    );
    expect(html.match(/data-testid="low-confidence-evidence"/g)).toHaveLength(1);
    expect(html).toContain('data-low-confidence="zenvaxor"');
    expect(html).toContain(i18n.t("editor.lowConfidence", { words: "zenvaxor", count: 1 }));
    expect(i18n.t("editor.lowConfidence", { words: "zenvaxor", count: 1 })).toContain("zenvaxor");
  });
});
