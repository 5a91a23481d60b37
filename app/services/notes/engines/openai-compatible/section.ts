import type { NoteSectionDraft, NoteSentence, SectionStyle, TemplateSection } from "#app/services/notes/model.ts";

/** Fixed text is the template's words, never the model's: one sentence, copied verbatim. */
export function fixedSentences(section: TemplateSection): NoteSentence[] {
  const text = section.fixedText?.trim();
  return text ? [{ text, evidence: [], supported: true, source: "template" }] : [];
}

/**
 * A persistent section's text from the patient's last signed note, as sentences: one per line
 * (bullets) or per sentence (prose). That note's copy of the fixed text is left out, since the
 * current template's fixed text is added anyway.
 */
export function previousSentences(section: TemplateSection, previous: string | undefined): NoteSentence[] {
  let text = previous?.trim() ?? "";
  const fixed = section.fixedText?.trim();
  if (fixed && text.startsWith(fixed)) text = text.slice(fixed.length).trim();
  if (!text) return [];
  return text
    .split("\n")
    .flatMap((line) => line.replace(/^\s*[-•*]\s+/, "").split(/(?<=[.!?])\s+(?=\p{Lu})/u))
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => ({ text: s, evidence: [], supported: true, source: "previous" as const }));
}

/** The section as it reads in the note: fixed text verbatim on its own lines, then bullets or one paragraph. */
export function renderSectionText(sentences: readonly NoteSentence[], style: SectionStyle): string {
  const fixed = sentences.filter((s) => s.source === "template").map((s) => s.text);
  const body = sentences.filter((s) => s.source !== "template").map((s) => s.text);
  const rendered = style === "bullets" ? body.map((s) => `- ${s}`).join("\n") : body.join(" ");
  return [...fixed, rendered].filter(Boolean).join("\n");
}

export function sectionDraft(section: TemplateSection, sentences: NoteSentence[]): NoteSectionDraft {
  return { key: section.key, title: section.title, text: renderSectionText(sentences, section.style), sentences };
}
