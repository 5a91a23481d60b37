// The worker-thread entry piscina loads (ADR 0037): run from source by Node's type stripping in
// every mode (the bundled server, `node server.ts`, Vitest), so it imports nothing but plain .ts.
export {
  codingSuggest,
  editDistances,
  extractiveDraft,
  noteOmissions,
  notePdf,
  spin,
  vocabularyTerms,
  whereAmI,
} from "./tasks.ts";
