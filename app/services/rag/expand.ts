import { HAND_WRITTEN_GROUPS } from "./lexicon/hand-written.ts";
import icd10cm from "./lexicon/icd10cm-synonyms.json" with { type: "json" };

// Turns a question into what the ranking searches (issue 12 "query expansion"): the question's own
// content words, the phrases of every synonym group the question names (ICD-10-CM titles and drug
// cross-references built by scripts/build-rag-lexicon.ts, plus the team's brand/generic and lay-term
// list), and the question's adjacent word pairs for the phrase boost. Pure and isomorphic.

/** Lower case without accents, as app.rag_fold does in the database. */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/œ/g, "oe").replace(/æ/g, "ae");
}

// Words that say how something is asked, not what about (the text-search configurations drop
// ordinary stop words themselves). Folded.
const QUESTION_WORDS = new Set(
  (
    "what which when where who whom whose why how did does do done was were is are has have had any ever " +
    "tell show find give list me we us our i you patient patients record records chart say said says about " +
    "quel quelle quels quelles quand ou qui pourquoi comment est-ce que qu a-t-il ont patient patiente dossier dit " +
    "que cual cuales cuando donde quien por como paciente historia dijo hay"
  ).split(" "),
);

// Function words of en/fr/es: a pair holding one is not a phrase worth boosting ("of lisinopril").
const FUNCTION_WORDS = new Set(
  (
    "a an the of in on at to for and or with by from she he her his him it its this that these those be been " +
    "le la les l'un une des du de d'un et ou en au aux avec pour par sur dans ce cette il elle son sa ses " +
    "el los las un una unos del al y o con por para en su sus este esta ese lo"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;

export function words(text: string): string[] {
  return [...fold(text).matchAll(WORD)].map((m) => m[0].replace(/’/g, "'"));
}

interface Lexicon {
  groups: string[][];
  /** First word of a phrase → the groups holding a phrase that starts with it. */
  byFirstWord: Map<string, number[]>;
}

let lexicon: Lexicon | null = null;

function loadLexicon(): Lexicon {
  if (lexicon) return lexicon;
  const groups = [...(icd10cm.groups as string[][]), ...HAND_WRITTEN_GROUPS.map((g) => [...g])].map((g) =>
    g.map((p) => words(p).join(" ")).filter(Boolean),
  );
  const byFirstWord = new Map<string, number[]>();
  groups.forEach((group, index) => {
    for (const phrase of group) {
      const first = phrase.split(" ")[0] ?? "";
      const list = byFirstWord.get(first) ?? [];
      if (!list.includes(index)) list.push(index);
      byFirstWord.set(first, list);
    }
  });
  lexicon = { groups, byFirstWord };
  return lexicon;
}

/**
 * Words too common in records to say what a question is about ("dose", "visit"): they still match,
 * but only the other words and the expansions count twice.
 */
export const GENERIC_WORDS = new Set(
  (
    "dose doses dosage start started take taking today visit visits doctor show showed result results time day last " +
    "first new note notes said current currently dosis posologie prend prendre toma tomar"
  ).split(" "),
);

// A question about an amount: passages that state one (a number with a unit) rank higher.
const AMOUNT_QUESTION =
  /\b(dose|doses|dosage|how much|how many|mg|milligrams?|level|posologie|combien|dosis|cuanto|cuantos|cuanta)\b/;

export interface ExpandedQuery {
  /** The question's content words, in order. */
  terms: string[];
  /** Equivalent phrases of the synonym groups the question names, not already in it. */
  expansions: string[];
  /** Adjacent content-word pairs of the question: a passage holding one as a phrase ranks higher. */
  phrases: string[];
  /** The words that say what the question is about (content words that are not generic, and the expansions). */
  key: string[];
  /** The question asks for an amount (a dose, a level). */
  wantsAmount: boolean;
}

export function expandQuery(query: string): ExpandedQuery {
  const all = words(query);
  const { groups, byFirstWord } = loadLexicon();
  const joined = ` ${all.join(" ")} `;
  const named = new Set<number>();
  for (const word of new Set(all)) {
    for (const index of byFirstWord.get(word) ?? []) {
      if (groups[index]?.some((phrase) => joined.includes(` ${phrase} `))) named.add(index);
    }
  }
  const terms = all.filter((w) => !QUESTION_WORDS.has(w) && w.length > 1);
  const expansions = new Set<string>();
  for (const index of named)
    for (const phrase of groups[index] ?? []) if (!joined.includes(` ${phrase} `)) expansions.add(phrase);
  const phrases: string[] = [];
  for (let i = 0; i + 1 < all.length; i += 1) {
    const a = all[i] ?? "";
    const b = all[i + 1] ?? "";
    const content = (w: string) => !QUESTION_WORDS.has(w) && !FUNCTION_WORDS.has(w);
    if (content(a) && content(b)) phrases.push(`${a} ${b}`);
  }
  const uniqueTerms = [...new Set(terms)];
  const expanded = [...expansions].slice(0, 40);
  const key = [...uniqueTerms.filter((t) => !GENERIC_WORDS.has(t)), ...expanded];
  return { terms: uniqueTerms, expansions: expanded, phrases, key, wantsAmount: AMOUNT_QUESTION.test(all.join(" ")) };
}
