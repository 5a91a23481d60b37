export { piecesFromDialogue } from "./dialogue.ts";
export { DRUG_NAMES, findDrugs } from "./drugs.ts";
export { createExtractiveEngine, EXTRACTIVE_ENGINE_ID, generateExtractive } from "./engine.ts";
export { renderNoteText } from "./render.ts";
