/**
 * How well the role model alone names OSCE turns from their words (no audio):
 *   node bench/asr/role-text.ts [--set tuning|held-out]
 */
import { parseArgs } from "node:util";
import roleModel from "#app/services/speech/diarise/role-model.json" with { type: "json" };
import { textRoleScore } from "#app/services/speech/diarise/roles.ts";
import { OSCE_HELD_OUT, OSCE_TUNING, readOsceTranscript } from "./osce.ts";

const { values } = parseArgs({ options: { set: { type: "string", default: "tuning" } } });
const ids = values.set === "held-out" ? OSCE_HELD_OUT : OSCE_TUNING;
let right = 0;
let total = 0;
let rightWords = 0;
let totalWords = 0;
for (const id of ids) {
  for (const turn of readOsceTranscript(id)) {
    const score = textRoleScore(roleModel, turn.text);
    const words = turn.text.split(/\s+/).length;
    const ok = (score > 0 ? "clinician" : "patient") === turn.role;
    total++;
    totalWords += words;
    if (ok) {
      right++;
      rightWords += words;
    }
  }
}
console.log(
  `${values.set}: turns ${right}/${total} (${((100 * right) / total).toFixed(1)}%), words ${((100 * rightWords) / totalWords).toFixed(1)}%`,
);
