/**
 * Word diarisation error on OSCE interviews decoded by osce-decode.ts (bench/results/osce-cache):
 *   node bench/asr/osce-diarise.ts --set tuning|held-out [--voice-weight 1 --text-cap 6 --min-separation 0]
 * Tune on `tuning` only; `held-out` is the figure to report (bench/asr/osce.ts names the split).
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { DEFAULT_TUNING } from "#app/services/speech/diarise/cluster.ts";
import { diariseSegments } from "#app/services/speech/diarise/diarise.server.ts";
import { diarisationErrors, type RoleWord } from "#app/services/speech/diarise/wder.ts";
import { normaliseText } from "#app/services/speech/text-normalise.ts";
import { errorRate, sumErrors, wordErrors } from "#app/services/speech/wer.ts";
import { OSCE_HELD_OUT, OSCE_TUNING, osceCacheDir, osceDir, readOsceTranscript } from "./osce.ts";

const { values: opts } = parseArgs({
  options: {
    set: { type: "string", default: "tuning" },
    "voice-weight": { type: "string", default: String(DEFAULT_TUNING.voiceWeight) },
    "text-cap": { type: "string", default: String(DEFAULT_TUNING.textCap) },
    "min-separation": { type: "string", default: String(DEFAULT_TUNING.minSeparation) },
    "neighbour-weight": { type: "string", default: String(DEFAULT_TUNING.neighbourWeight) },
    "neighbour-gap": { type: "string", default: String(DEFAULT_TUNING.neighbourGap) },
  },
});
const ids = opts.set === "held-out" ? OSCE_HELD_OUT : OSCE_TUNING;
const tuning = {
  voiceWeight: Number(opts["voice-weight"]),
  textCap: Number(opts["text-cap"]),
  minSeparation: Number(opts["min-separation"]),
  neighbourWeight: Number(opts["neighbour-weight"]),
  neighbourGap: Number(opts["neighbour-gap"]),
};
let correct = 0;
let wrong = 0;
const werAll = [];
for (const id of ids) {
  const cachePath = join(osceCacheDir(), `${id}.json`);
  if (!existsSync(cachePath)) {
    console.log(`${id}: not decoded yet (osce-decode.ts)`);
    continue;
  }
  const cached = JSON.parse(readFileSync(cachePath, "utf8")) as {
    segments: { start: number; end: number; text: string }[];
    durationSec: number;
    wallSec: number;
    trimmedTo?: number | null;
  };
  const scratch = await mkdtemp(join(tmpdir(), "osce-d-"));
  try {
    const wav = join(scratch, "a.wav");
    await normaliseAudio(join(osceDir(), "audio", `${id}.mp3`), wav);
    const started = performance.now();
    const roles = await diariseSegments(wav, cached.segments, tuning);
    const diariseSec = (performance.now() - started) / 1000;
    const reference: RoleWord[] = readOsceTranscript(id).flatMap((t) =>
      normaliseText(t.text)
        .split(" ")
        .filter(Boolean)
        .map((word) => ({ word, role: t.role })),
    );
    const hypothesis: RoleWord[] = cached.segments.flatMap((s, i) =>
      normaliseText(s.text)
        .split(" ")
        .filter(Boolean)
        .map((word) => ({ word, role: roles[i] ?? null })),
    );
    const d = diarisationErrors(reference, hypothesis);
    const hypText = hypothesis.map((h) => h.word).join(" ");
    // A trimmed decode (OSCE_MAX_SEC) is scored against the reference prefix it matches best.
    let refWords = reference.map((r) => r.word);
    if (cached.trimmedTo) {
      let best = refWords.length;
      let bestRate = Number.POSITIVE_INFINITY;
      for (let n = Math.max(10, Math.floor(hypothesis.length * 0.5)); n <= refWords.length; n += 5) {
        const rate = errorRate(wordErrors(refWords.slice(0, n).join(" "), hypText));
        if (rate < bestRate) [best, bestRate] = [n, rate];
      }
      refWords = refWords.slice(0, best);
    }
    const w = wordErrors(refWords.join(" "), hypText);
    werAll.push(w);
    correct += d.correctWords;
    wrong += d.wrongRole;
    console.log(
      `${id}: WER ${errorRate(w).toFixed(3)}  WDER ${(d.wrongRole / d.correctWords).toFixed(3)} (${d.wrongRole}/${d.correctWords})  decode ${(cached.wallSec / (cached.durationSec / 60)).toFixed(1)} s/audio min  diarise ${diariseSec.toFixed(1)} s`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
if (correct > 0)
  console.log(
    `${opts.set} ${ids.join(",")}: WER ${errorRate(sumErrors(werAll)).toFixed(3)}  WDER ${(wrong / correct).toFixed(3)} (${wrong}/${correct})`,
  );
