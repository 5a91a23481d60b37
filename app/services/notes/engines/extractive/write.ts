// A section's sentences → its text (bullets or prose), and sentence evidence.
import type { Evidence, NoteSentence, SectionStyle } from "../../model.ts";
import type { Sentence } from "./sentences.ts";

export function evidenceOf(sentences: Sentence[]): Evidence[] {
  return sentences.map((s) => ({ start: s.start, end: s.end, quote: s.quote }));
}

export function sectionText(sentences: NoteSentence[], style: SectionStyle): string {
  if (sentences.length === 0) return "";
  if (style === "bullets") return sentences.map((s) => `- ${s.text}`).join("\n");
  return sentences.map((s) => s.text).join(" ");
}
