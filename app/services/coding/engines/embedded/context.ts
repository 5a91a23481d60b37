// Assertion status of a mention, from cue words in its clause (a NegEx-like window): negated ("no",
// "denies", "ruled out"), uncertain ("possible", "rule out", "suspected"), history ("history of",
// "previous"), family ("mother had", "family history"). A cue covers the rest of its clause
// (up to a break: ".", ";", ":", "but", "however", a comma opening a new clause) — or, for post-cues such as
// "was ruled out", the clause before it.
import type { Token } from "../../text.ts";

export type Assertion = "present" | "negated" | "uncertain" | "history" | "family";

const PRE: Array<[RegExp, Assertion]> = [
  [
    /\b(?:no|not|denies|denied|deny|without|negative for|free of|absence of|absent|ruled out|excluded|nor|never had)\b/gi,
    "negated",
  ],
  [
    /\b(?:rule out|r\/o|possible|possibly|probable|probably|suspected|suspicion of|suspect|likely|questionable|cannot be excluded|differential diagnosis|versus|vs\.?|compatible with|suggestive of|consistent with|concern for|worrisome for)\b/gi,
    "uncertain",
  ],
  [
    /\b(?:history of|h\/o|hx of|past medical history|pmh|previous|previously|prior|formerly|status post|s\/p|resolved)\b/gi,
    "history",
  ],
  [/\b(?:family history|mother|father|brother|sister|sibling|parents?|grandmother|grandfather|aunt|uncle)\b/gi, "family"],
];
const POST: Array<[RegExp, Assertion]> = [
  [/\b(?:was|were|is|are|been)\s+(?:ruled out|excluded|negative|absent)\b/gi, "negated"],
  [/\b(?:unlikely|not confirmed|to be ruled out)\b/gi, "uncertain"],
];
// A comma ends a scope when a new clause starts after it ("no allergies, was hypertensive", "without
// complications, with anemia"), not inside a list ("no fever, cough or rash").
const BREAK =
  /[.;:!?\n]|,\s*(?=(?:with|was|were|is|are|has|had|as|the|she|he|her|his|ex)\b)|\b(?:but|however|although|except|which|who|whose|presents?|presented|shows?|showed|revealed)\b/gi;

interface Scope {
  start: number;
  end: number;
  assertion: Assertion;
}

/** The assertion scopes in a sentence (offsets into the same text as its tokens). */
export function scopes(text: string, from: number, to: number): Scope[] {
  const part = text.slice(from, to);
  const breaks: number[] = [];
  for (const m of part.matchAll(BREAK)) breaks.push(m.index);
  const nextBreak = (i: number) => breaks.find((b) => b > i) ?? part.length;
  const prevBreak = (i: number) => [...breaks].reverse().find((b) => b < i) ?? 0;
  const out: Scope[] = [];
  for (const [re, assertion] of PRE) {
    for (const m of part.matchAll(re)) {
      out.push({ start: from + m.index, end: from + nextBreak(m.index + m[0].length), assertion });
    }
  }
  for (const [re, assertion] of POST) {
    for (const m of part.matchAll(re)) out.push({ start: from + prevBreak(m.index), end: from + m.index, assertion });
  }
  return out;
}

// Negation beats uncertainty beats family beats history when scopes overlap.
const RANK: Record<Assertion, number> = { negated: 4, uncertain: 3, family: 2, history: 1, present: 0 };

export function assertionOf(tokens: Token[], all: Scope[]): Assertion {
  let best: Assertion = "present";
  for (const s of all) {
    if (tokens.some((t) => t.start >= s.start && t.end <= s.end) && RANK[s.assertion] > RANK[best]) best = s.assertion;
  }
  return best;
}
