import { describe, expect, it } from "vitest";
import { findContradictions } from "#app/services/notes/checks/contradictions.ts";
import { piecesFromDialogue } from "#app/services/notes/engines/extractive/index.ts";
import type { NoteSectionDraft, SectionKind } from "#app/services/notes/model.ts";
import { CLEAN, CRAFTED, type CraftedCase } from "#bench/notes/contradiction-cases.ts";

// Issue 27: each contradiction kind in en/fr/es is found (bench/notes/contradiction-cases.ts), and
// consistent notes raise none. The false-contradiction rate on real notes is measured by
// `npm run bench:checks` (ACI-Bench valid), not asserted here.

function noteOf(c: Pick<CraftedCase, "sections">): { sections: NoteSectionDraft[]; kinds: Map<string, SectionKind> } {
  const kinds = new Map<string, SectionKind>();
  const sections = c.sections.map(([kind, sentences], i): NoteSectionDraft => {
    const key = `${kind}_${i}`;
    kinds.set(key, kind);
    return {
      key,
      title: kind,
      text: sentences.join(" "),
      sentences: sentences.map((text) => ({ text, evidence: [], supported: true, source: "transcript" })),
    };
  });
  return { sections, kinds };
}

describe("contradictions", () => {
  for (const c of CRAFTED) {
    it(`finds ${c.expect} (${c.language}): ${c.name}`, () => {
      const { sections, kinds } = noteOf(c);
      const found = findContradictions(
        sections,
        kinds,
        c.language,
        c.transcript ? piecesFromDialogue(c.transcript.join("\n")) : [],
      );
      expect(found).toEqual(expect.arrayContaining([expect.objectContaining({ code: c.expect, against: c.against ?? "note" })]));
    });
  }
  for (const c of CLEAN) {
    it(`raises nothing (${c.language}): ${c.name}`, () => {
      const { sections, kinds } = noteOf(c);
      expect(findContradictions(sections, kinds, c.language)).toEqual([]);
    });
  }
  it("names the sentence that carries the check and the one it contradicts", () => {
    const { sections, kinds } = noteOf(CRAFTED[0] as CraftedCase);
    expect(findContradictions(sections, kinds, "en")).toEqual([
      {
        code: "denies_reports",
        section: "hpi_0",
        sentence: "A little short of breath.",
        other: "Denies fever or shortness of breath.",
        against: "note",
      },
    ]);
  });
});
