import { createExtractiveEngine, piecesFromDialogue, renderNoteText } from "#app/services/notes/engines/extractive/index.ts";
import { loadAciSplit } from "./aci-data.ts";
import { ACI_TEMPLATE } from "./aci-template.ts";
import { hasFiller, hasVerb, isFirstOrSecondPerson, noteSentencesBySection } from "./register.ts";

const engine = createExtractiveEngine();
const what = process.argv[2] ?? "person";
const only = process.argv[3];
for (const e of loadAciSplit("train")) {
  const d = await engine.generate({
    template: ACI_TEMPLATE,
    transcript: piecesFromDialogue(e.dialogue),
    language: "en",
    context: { patient: { sex: e.patientSex } },
  });
  const text = renderNoteText(ACI_TEMPLATE, d);
  for (const [sec, ss] of noteSentencesBySection(text)) {
    if (only && sec !== only) continue;
    for (const s of ss) {
      const hit = what === "person" ? isFirstOrSecondPerson(s) : what === "filler" ? hasFiller(s) : !hasVerb(s);
      if (hit) console.log(`${sec}\t${s}`);
    }
  }
}
