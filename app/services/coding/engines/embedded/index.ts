import { readCodeSetFile } from "../../codes/load.server.ts";
import { icd10cmTable } from "../../codes/registry.server.ts";
import { createEmbeddedEngine, type EmbeddedEngineOptions, type LearnedRanking } from "./engine.ts";
import { type LexiconFile, learnedRanking, learnedTerms } from "./lexicon.ts";
import { buildTitleIndex, type Term, type TitleIndex } from "./title-index.ts";

let titleIndex: TitleIndex | null = null;
let learned: Map<string, Term[]> | null = null;
let lexiconRanking: LearnedRanking | null = null;

export interface EmbeddedEngineFactoryOptions extends EmbeddedEngineOptions {
  learnedWeight?: number;
  withLexicon?: boolean;
  /** false: rank by the summed match score instead of the learned ranking (the benchmark's ablation). */
  withRanker?: boolean;
  /** A lexicon other than the shipped one (the trainer's cross-fitting folds). */
  lexicon?: LexiconFile;
}

/** The embedded engine over the shipped ICD-10-CM table; the indexes are built once per process. */
export function embeddedEngine(options: EmbeddedEngineFactoryOptions = {}) {
  const table = icd10cmTable();
  titleIndex ??= buildTitleIndex(table);
  if (options.withLexicon === false) return createEmbeddedEngine(table, titleIndex, options);
  if (options.lexicon || options.learnedWeight !== undefined) {
    const file = options.lexicon ?? readCodeSetFile<LexiconFile>("codiesp-lexicon.json.gz");
    return createEmbeddedEngine(
      table,
      titleIndex,
      options,
      learnedTerms(file, table, options.learnedWeight),
      learnedRanking(file, options.withRanker !== false),
    );
  }
  if (!learned) {
    const file = readCodeSetFile<LexiconFile>("codiesp-lexicon.json.gz");
    learned = learnedTerms(file, table);
    lexiconRanking = learnedRanking(file);
  }
  const ranking = options.withRanker === false ? { prior: lexiconRanking!.prior } : lexiconRanking!;
  return createEmbeddedEngine(table, titleIndex, options, learned, ranking);
}
