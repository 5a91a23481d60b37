// The rewriting stage (issue 18): a sentence the engine has chosen, already in the third person,
// rewritten in a clinician's register by its language's rules — exam narration → findings, the
// patient's words → reported speech, plans → orders, hedges, fillers and false starts out. Rules
// only remove words, reorder them or add note phrasing ("Reports", "Lungs:", "Start", "daily");
// never a number, a drug or a finding the sentence did not hold (tests/notes/rewrite-*.test.ts,
// tests/notes/extractive-aci-facts.test.ts).
import type { NoteLanguage } from "../../model.ts";
import type { Voice } from "./person.ts";
import { REWRITE_EN } from "./rewrite-en.ts";
import { REWRITE_ES } from "./rewrite-es.ts";
import { REWRITE_FR } from "./rewrite-fr.ts";

/** What the sentence does in the note, which decides the rules applied. */
export type RewriteRole = "history" | "exam" | "results" | "assessment" | "plan";

export type Replacement = string | ((match: string, ...groups: string[]) => string);
export type Rule = [RegExp, Replacement];

export interface LanguageRewriter {
  /** Sentences that are narration with nothing to note ("let me take a look"): dropped. */
  drop: Partial<Record<RewriteRole | "any", RegExp[]>>;
  /** Applied in order: first `any`, then the role's own rules, then `tidy`. */
  rules: Partial<Record<RewriteRole | "any", Rule[]>>;
  /** The patient's words (voice "patient") in history: reported speech. */
  reported: Rule[];
  /** Last: punctuation and spacing left by the rules. */
  tidy: Rule[];
  /** A verb in the sentence (else it is a fragment). */
  hasVerb: (text: string) => boolean;
}

const REWRITERS: Record<NoteLanguage, LanguageRewriter> = { en: REWRITE_EN, fr: REWRITE_FR, es: REWRITE_ES };

function apply(text: string, rules: Rule[] | undefined): string {
  let t = text;
  for (const [re, to] of rules ?? []) t = t.replace(re, to as string);
  return t;
}

/** First letter up, one final full stop, no doubled spaces or stray punctuation. */
export function finish(text: string): string {
  const t = text
    .replace(/\s+/g, " ")
    .replace(/\s+([,.;:?!])/g, "$1")
    .replace(/([,;:])(?:\s*[,;:])+/g, "$1")
    .replace(/^[\s,;:.-]+/, "")
    .replace(/[\s,;:-]+$/, "")
    .replace(/[.?!]+$/, "")
    .trim();
  if (!t) return "";
  // A label's first word is capitalised too ("Lungs: crackles" → "Lungs: Crackles" reads as clinicians write it).
  const capital = t
    .replace(/^(\p{Ll})/u, (c) => c.toUpperCase())
    .replace(/^([^:]{2,30}: )(\p{Ll})/u, (_m, label: string, c: string) => label + c.toUpperCase());
  return `${capital}.`;
}

/**
 * A chosen sentence in a clinician's register, or null when nothing of note is left. `voice` is
 * who said it; the text is the engine's third-person version of what was said.
 */
export function rewriteSentence(text: string, role: RewriteRole, voice: Voice, language: NoteLanguage): string | null {
  const r = REWRITERS[language];
  // Rules see the sentence without its final punctuation and with a lower-case first letter.
  let t = text
    .trim()
    .replace(/[.?!]+$/, "")
    .replace(/^(\p{Lu})(?=\p{Ll})/u, (c) => c.toLowerCase());
  for (const re of [...(r.drop.any ?? []), ...(r.drop[role] ?? [])]) if (re.test(t)) return null;
  t = apply(t, r.rules.any);
  if (voice === "patient" && role === "history") t = apply(t, r.reported);
  t = apply(t, r.rules[role]);
  t = apply(t, r.tidy);
  // Lead-ins the rules removed ("so, let's talk a little about my plan") can uncover narration.
  const bare = t.trim().replace(/^(\p{Lu})(?=\p{Ll})/u, (c) => c.toLowerCase());
  for (const re of [...(r.drop.any ?? []), ...(r.drop[role] ?? [])]) if (re.test(bare)) return null;
  const out = finish(t);
  return out.replace(/[^\p{L}\d]/gu, "").length < 2 ? null : out;
}

export function hasVerb(text: string, language: NoteLanguage): boolean {
  return REWRITERS[language].hasVerb(text);
}
