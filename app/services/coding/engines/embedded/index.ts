import { readCodeSetFile } from "../../codes/load.server.ts";
import { icd10cmTable } from "../../codes/registry.server.ts";
import { createEmbeddedEngine, type EmbeddedEngineOptions } from "./engine.ts";
import { type LexiconFile, learnedTerms } from "./lexicon.ts";
import { buildTitleIndex, type Term, type TitleIndex } from "./title-index.ts";

let titleIndex: TitleIndex | null = null;
let learned: Map<string, Term[]> | null = null;

/** The embedded engine over the shipped ICD-10-CM table; the indexes are built once per process. */
export function embeddedEngine(options: EmbeddedEngineOptions & { learnedWeight?: number; withLexicon?: boolean } = {}) {
  const table = icd10cmTable();
  titleIndex ??= buildTitleIndex(table);
  if (options.withLexicon === false) return createEmbeddedEngine(table, titleIndex, options);
  if (options.learnedWeight !== undefined) {
    return createEmbeddedEngine(
      table,
      titleIndex,
      options,
      learnedTerms(readCodeSetFile<LexiconFile>("codiesp-lexicon.json.gz"), table, options.learnedWeight),
    );
  }
  learned ??= learnedTerms(readCodeSetFile<LexiconFile>("codiesp-lexicon.json.gz"), table);
  return createEmbeddedEngine(table, titleIndex, options, learned);
}
