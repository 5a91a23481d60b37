import { fold } from "../../text.ts";

// Which part of a note a sentence belongs to (ADR 43). A note reaches the engine as "Title\ntext"
// blocks (cases.server.ts noteText); typed text may also say "Assessment: …". What the Assessment or
// Plan states outranks an incidental mention, and an Allergies section lists allergy history (Z88),
// not conditions to code. Titles are those of the built-in templates in en/fr/es, and common variants.

export type SectionKind = "assessment" | "plan" | "allergies" | "other";

const KINDS: Array<[RegExp, SectionKind]> = [
  [
    /^(?:assessment(?: and plan)?|a\/p|impression|diagnos[ie]s|problem list|evaluation(?: et plan| y plan)?|diagnostic|conclusions?|liste des problemes|lista de problemas|diagnostico|impresion(?: diagnostica)?|juicio clinico)$/,
    "assessment",
  ],
  [/^(?:plan|treatment plan|plan de traitement|plan de tratamiento|conduite a tenir)$/, "plan"],
  [/^(?:allerg(?:y|ies)|drug allerg(?:y|ies)|allergies medicamenteuses|alergias?)$/, "allergies"],
];

/** A section title: its kind and the words as written (the rationale quotes them). */
export interface SectionHead {
  kind: SectionKind;
  title: string;
}

/**
 * The section a line opens: a known title ("Assessment", "Plan de traitement") alone or before a
 * colon ("Assessment: …", then `rest` is where the text after the colon starts), any other title of
 * ≤ 4 words before a colon ("Physical examination: …"), or a short line without a full stop after a
 * blank line (how a note's sections reach the engine: "Title\ntext\n\nTitle\ntext").
 */
export function sectionHead(line: string, afterBlank: boolean): { head: SectionHead; rest: number } | null {
  const colon = /^\s*([\p{L}][\p{L} /'-]{1,40}?)\s*:/u.exec(line);
  const candidate = (colon ? colon[1]! : line).trim();
  const key = fold(candidate).replace(/\s+/g, " ");
  for (const [re, kind] of KINDS) {
    if (re.test(key)) return { head: { kind, title: candidate }, rest: colon ? colon[0].length : line.length };
  }
  const words = key.split(" ").length;
  if (colon && words <= 4) return { head: { kind: "other", title: candidate }, rest: colon[0].length };
  if (!colon && afterBlank && words <= 6 && candidate.length <= 60 && !/[.!?]$/.test(candidate)) {
    return { head: { kind: "other", title: candidate }, rest: line.length };
  }
  return null;
}

export interface SectionSpan extends SectionHead {
  /** Offset of the header line, and of the text after the title (the title itself is never coded). */
  start: number;
  body: number;
}

/** Every section header of a text, in order. */
export function sectionSpans(text: string): SectionSpan[] {
  const out: SectionSpan[] = [];
  let offset = 0;
  let afterBlank = true;
  for (const line of text.split("\n")) {
    if (line.trim() === "") afterBlank = true;
    else {
      const found = sectionHead(line, afterBlank);
      if (found) out.push({ ...found.head, start: offset, body: offset + found.rest });
      afterBlank = false;
    }
    offset += line.length + 1;
  }
  return out;
}

/** The section a text offset is in (null before the first header). */
export function sectionAt(spans: SectionSpan[], offset: number): SectionSpan | null {
  let found: SectionSpan | null = null;
  for (const s of spans) if (s.start <= offset) found = s;
  return found;
}
