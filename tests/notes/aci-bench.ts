// ACI-Bench for the notes tests, read in place from the shared data (never copied here).
export { aciBenchDir, loadAciSplit, readCsvObjects, sharedDataDir } from "../../bench/notes/aci-data.ts";
export { ACI_TEMPLATE } from "../../bench/notes/aci-template.ts";

export const ACI_MISSING =
  "ACI-Bench not found: set MURMUR_SHARED_DATA to the shared data folder (holding aci-bench/), or place it at ../shared/data";
