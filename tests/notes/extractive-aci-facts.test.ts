// The engine's core rule on real dialogues: no number and no drug appears in a note unless it was
// said in that visit. Every ACI-Bench train and valid dialogue is checked.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  findDrugs,
  generateExtractive,
  piecesFromDialogue,
  renderNoteText,
} from "#app/services/notes/engines/extractive/index.ts";
import { lexiconFor } from "#app/services/notes/engines/extractive/lexicon.ts";
import { cleanSpeech, expandContractions, numbersToDigits, tidySpacing } from "#app/services/notes/engines/extractive/text.ts";
import { ACI_MISSING, ACI_TEMPLATE, aciBenchDir, loadAciSplit, readCsvObjects, sharedDataDir } from "./aci-bench.ts";
import { SOAP_EN } from "./extractive-fixtures.ts";
import { REASSURANCE } from "./rewrite-helpers.ts";

const available = aciBenchDir() !== null;
if (!available) console.warn(`skipping extractive-aci-facts: ${ACI_MISSING}`);

/** Numbers in a text; the transcript's spelled-out numbers count as digits, as the engine writes them. */
function numbersIn(text: string): Set<string> {
  return new Set((text.match(/\d+(?:\.\d+)?/g) ?? []).map((n) => String(Number(n))));
}

/** Letters and digits only: evidence quotes keep the words said, with tidied spacing. */
const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "");

/**
 * The rewriting stage's one spelled-out number, as the engine writes it: "in a month" → "in 1
 * month", "in a couple of weeks" → "in 2 weeks" (issue 18).
 */
function saidTimings(text: string): string {
  return text
    .replace(/\bin (?:a|one) (week|month|year|day)\b/gi, "in 1 $1")
    .replace(/\bin (?:a )?couple (?:of )?(weeks|months|days)\b/gi, "in 2 $1");
}

const NEGATED = /\b(?:no|not|never|denies|denied|without|none|nothing|negative)\b|n't\b/i;

/** A problem's list number ("1. Heart failure: …") is the note's structure, not a fact. */
export function withoutListNumbers(note: string): string {
  return note.replace(/^\d{1,2}\.\s/gm, "");
}

/** Numbers and drugs in a note that its dialogue never said. */
function inventions(id: string, dialogue: string, rawNote: string): string[] {
  const lexicon = lexiconFor("en");
  const note = withoutListNumbers(rawNote);
  const said = dialogue
    .split("\n")
    .map((line) => saidTimings(numbersToDigits(expandContractions(tidySpacing(line, "en"), "en"), lexicon)))
    .join("\n");
  const saidNumbers = numbersIn(said);
  const saidDrugs = new Set(findDrugs(dialogue));
  return [
    ...[...numbersIn(note)].filter((n) => !saidNumbers.has(n)).map((n) => `${id}: number ${n}`),
    ...findDrugs(note)
      .filter((drug) => !saidDrugs.has(drug))
      .map((drug) => `${id}: drug ${drug}`),
  ];
}

describe.skipIf(!available)("extractive engine on every ACI-Bench train and valid dialogue", () => {
  const encounters = available ? [...loadAciSplit("train"), ...loadAciSplit("valid")] : [];

  it("reads all 87 encounters", () => {
    expect(encounters).toHaveLength(87);
  });

  it("writes no number and no drug that is not in the transcript", () => {
    const problems: string[] = [];
    let numbersChecked = 0;
    let drugsChecked = 0;
    for (const encounter of encounters) {
      const context = encounter.patientSex ? { patient: { sex: encounter.patientSex } } : {};
      const draft = generateExtractive({
        template: ACI_TEMPLATE,
        transcript: piecesFromDialogue(encounter.dialogue),
        language: "en",
        context,
      });
      const note = renderNoteText(ACI_TEMPLATE, draft);
      expect(note.length, encounter.id).toBeGreaterThan(100);
      numbersChecked += numbersIn(note).size;
      drugsChecked += findDrugs(note).length;
      problems.push(...inventions(encounter.id, encounter.dialogue, note));
    }
    expect(problems).toEqual([]);
    // The check has something to check: notes do carry numbers and drugs.
    expect(numbersChecked).toBeGreaterThan(200);
    expect(drugsChecked).toBeGreaterThan(50);
  });

  it("rewrites no sentence beyond its own evidence: its numbers and drugs are its source sentences' (issue 18)", () => {
    const lexicon = lexiconFor("en");
    // As the engine reads speech (stutters out: "five hundred five hundred milligrams"), and as said.
    const said = (quote: string) => {
      const spaced = expandContractions(tidySpacing(quote, "en"), "en");
      return `${saidTimings(numbersToDigits(cleanSpeech(spaced, lexicon), lexicon))}\n${saidTimings(numbersToDigits(spaced, lexicon))}`;
    };
    const problems: string[] = [];
    let sentences = 0;
    for (const encounter of encounters) {
      const context = encounter.patientSex ? { patient: { sex: encounter.patientSex } } : {};
      const draft = generateExtractive({
        template: ACI_TEMPLATE,
        transcript: piecesFromDialogue(encounter.dialogue),
        language: "en",
        context,
      });
      for (const [key, sentence] of draft.sections.flatMap((s) => s.sentences.map((t) => [s.key, t] as const))) {
        if (sentence.source !== "transcript") continue;
        sentences += 1;
        const source = sentence.evidence.map((e) => said(e.quote)).join("\n");
        const text = withoutListNumbers(sentence.text);
        const sourceNumbers = numbersIn(source);
        for (const n of numbersIn(text)) if (!sourceNumbers.has(n)) problems.push(`${encounter.id}: ${n} in "${sentence.text}"`);
        const sourceDrugs = new Set(findDrugs(source));
        for (const d of findDrugs(text)) if (!sourceDrugs.has(d)) problems.push(`${encounter.id}: ${d} in "${sentence.text}"`);
        // A negated source stays negated: rewriting may drop a hedge, never a "no".
        // Headings (the chief complaint, a problem's name) name a topic, they do not restate the sentence; an
        // answer's "no," is not part of the statement after it, nor "to be sure we are not missing anything" of an order.
        const statement = source.replace(/^\s*no\s*[,.]\s*/gim, "").replace(REASSURANCE, "");
        const heading = key === "chief_complaint" || /^\d+\.\s[^:]+\.$/.test(sentence.text);
        if (!heading && sentence.evidence.length === 1 && NEGATED.test(statement) && !NEGATED.test(sentence.text))
          problems.push(`${encounter.id}: negation lost in "${sentence.text}" (said "${sentence.evidence[0]?.quote}")`);
      }
    }
    expect(problems).toEqual([]);
    expect(sentences).toBeGreaterThan(1500);
  });

  it("gives every transcript sentence evidence inside the dialogue's time line", () => {
    for (const encounter of encounters.slice(0, 20)) {
      const pieces = piecesFromDialogue(encounter.dialogue);
      const end = pieces.at(-1)?.end ?? 0;
      const draft = generateExtractive({ template: ACI_TEMPLATE, transcript: pieces, language: "en" });
      for (const sentence of draft.sections.flatMap((s) => s.sentences)) {
        expect(sentence.source).toBe("transcript");
        expect(sentence.supported).toBe(true);
        expect(sentence.evidence.length).toBeGreaterThan(0);
        for (const evidence of sentence.evidence) {
          expect(evidence.start).toBeGreaterThanOrEqual(0);
          expect(evidence.end).toBeLessThanOrEqual(end + 0.001);
          expect(evidence.start).toBeLessThanOrEqual(evidence.end);
          expect(squash(encounter.dialogue)).toContain(squash(evidence.quote));
        }
      }
    }
  });
});

const mtsDialog = sharedDataDir() ? join(sharedDataDir() as string, "mts-dialog", "MTS-Dialog-ValidationSet.csv") : null;

describe.skipIf(!mtsDialog || !existsSync(mtsDialog))("extractive engine on MTS-Dialog (validation set)", () => {
  it("writes no number and no drug that is not in the dialogue", () => {
    const rows = readCsvObjects(mtsDialog as string);
    expect(rows.length).toBeGreaterThan(50);
    const problems: string[] = [];
    let written = 0;
    for (const row of rows) {
      const dialogue = row.dialogue ?? "";
      const note = renderNoteText(
        SOAP_EN,
        generateExtractive({ template: SOAP_EN, transcript: piecesFromDialogue(dialogue), language: "en" }),
      );
      if (note) written += 1;
      problems.push(...inventions(`MTS ${row.ID}`, dialogue, note));
    }
    expect(problems).toEqual([]);
    expect(written).toBeGreaterThan(rows.length / 2);
  });
});
