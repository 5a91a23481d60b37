import { describe, expect, it } from "vitest";
import type { OrgVocabulary } from "#app/services/speech/org-vocab/model-cache.server.ts";
import { MAX_PROMPT_CHARS, whisperPrompt } from "#app/services/speech/whisper-prompt.ts";

const vocabulary = (terms: OrgVocabulary["terms"]): OrgVocabulary => ({ orgId: "org-1", version: "v1", terms });

describe("the organisation's vocabulary as a Whisper prompt", () => {
  it("lists the owner's words and clinicians' names before template and note words, names capitalised", () => {
    const prompt = whisperPrompt(
      vocabulary([
        { word: "metformin", source: "note" },
        { word: "okafor", source: "clinician" },
        { word: "periodontitis", source: "template" },
        { word: "xarelto", source: "custom" },
      ]),
      "en",
    );
    expect(prompt).toBe("Glossary: xarelto, Okafor, periodontitis, metformin.");
  });

  it("gives none without terms or for a visit that is not in English", () => {
    expect(whisperPrompt(undefined, "en")).toBeUndefined();
    expect(whisperPrompt(vocabulary([]), "en")).toBeUndefined();
    expect(whisperPrompt(vocabulary([{ word: "xarelto", source: "custom" }]), "fr")).toBeUndefined();
  });

  it("stops before whisper.cpp's prompt budget, at a whole term", () => {
    const terms = Array.from({ length: 400 }, (_, i) => ({ word: `term${String(i).padStart(3, "0")}`, source: "note" as const }));
    const prompt = whisperPrompt(vocabulary(terms), "en") as string;
    expect(prompt.length).toBeLessThanOrEqual(MAX_PROMPT_CHARS);
    expect(prompt).toMatch(/^Glossary: term000, term001, .*term\d{3}\.$/);
    expect(prompt.split(", ").length).toBeGreaterThan(40);
  });
});
