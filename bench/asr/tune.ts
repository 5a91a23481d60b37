// Decoder-weight tuning on held-out TUNING data only (never the bench's evaluation set): dialogues
// with dialogueRole "tune" (one MTS-Dialog/ACI-Bench train dialogue in ten, excluded from the
// conversation LM) spoken by espeak-ng, plus bench/asr/clinical-dev-sentences.txt. Prints WER and
// decoder CPU per variant.
//
//   nice -n 19 node bench/asr/tune.ts [--dialogues 4] [--dialogue-words 120] \
//     --variant 'stock' --variant 'conversation' --variant 'conversation -lw 8'
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { transcribeLongAudio } from "#app/services/speech/long-audio.server.ts";
import { createPocketsphinxEngine, type PocketsphinxLanguageModel } from "#app/services/speech/pocketsphinx.server.ts";
import { normaliseText } from "#app/services/speech/text-normalise.ts";
import { errorRate, sumErrors, type WordErrors, wordErrors } from "#app/services/speech/wer.ts";
import { readSentences, selectConversations, synthesiseClinical, synthesiseConversation } from "./datasets.ts";

const { values } = parseArgs({
  options: {
    dialogues: { type: "string", default: "4" },
    "dialogue-words": { type: "string", default: "120" },
    variant: { type: "string", multiple: true, default: ["stock", "conversation"] },
  },
});

function childCpuSec(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const scratch = mkdtempSync(join(tmpdir(), "murmur-tune-"));
try {
  const selection = selectConversations({
    count: Number(values.dialogues),
    words: Number(values["dialogue-words"]),
    seed: 7,
    voices: ["en-us+klatt", "en-us+klatt4"],
    role: "tune",
  });
  const clips = selection.samples.map((s, i) => synthesiseConversation(s, scratch, i));
  const dev = readSentences(resolve(import.meta.dirname, "clinical-dev-sentences.txt"));
  clips.push({ ...synthesiseClinical(dev, "en-us+klatt", scratch), reference: dev.map(normaliseText).join(" ") });
  const ready: { reference: string; wav: string; seconds: number }[] = [];
  for (const [i, clip] of clips.entries()) {
    const wav = join(scratch, `tune-${i}.wav`);
    const { durationSec } = await normaliseAudio(clip.path, wav);
    ready.push({ reference: clip.reference, wav, seconds: durationSec });
  }
  const audio = ready.reduce((n, c) => n + c.seconds, 0);
  console.log(
    `tuning audio: ${clips.length} clips, ${audio.toFixed(0)} s (${selection.samples.length} tune dialogues + dev sentences)`,
  );
  for (const variant of values.variant ?? []) {
    const [model = "stock", ...flags] = variant.split(/\s+/);
    const engine = createPocketsphinxEngine({
      languageModel: model as PocketsphinxLanguageModel,
      extraArgs: flags,
      timeoutMs: 30 * 60_000,
    });
    const errors: WordErrors[] = [];
    const cpu = childCpuSec();
    for (const clip of ready) {
      const result = await transcribeLongAudio(engine, clip.wav, { language: "en" });
      errors.push(wordErrors(clip.reference, result.text));
    }
    const dialogueErrors = sumErrors(errors.slice(0, -1));
    console.log(
      `${variant.padEnd(40)} WER all ${errorRate(sumErrors(errors)).toFixed(3)}  dialogues ${errorRate(dialogueErrors).toFixed(3)}  ` +
        `dev ${errorRate(errors.at(-1) as WordErrors).toFixed(3)}  CPU RTF ${((childCpuSec() - cpu) / audio).toFixed(3)}  ` +
        // The split says which way to move -wip: many deletions call for a higher one, many insertions for a lower one.
        `dialogues S/D/I ${dialogueErrors.substitutions}/${dialogueErrors.deletions}/${dialogueErrors.insertions} of ${dialogueErrors.referenceWords}`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
