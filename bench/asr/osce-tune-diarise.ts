/**
 * Sweeps the diarisation settings on the OSCE **tuning** interviews only (bench/asr/osce.ts), from
 * the decodes osce-decode.ts cached; prints each setting's word diarisation error, best last.
 *   node bench/asr/osce-tune-diarise.ts
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { assignRoles, DEFAULT_TUNING, type DiariseTuning, type SegmentEvidence } from "#app/services/speech/diarise/cluster.ts";
import { segmentEvidence } from "#app/services/speech/diarise/diarise.server.ts";
import { diarisationErrors, type RoleWord } from "#app/services/speech/diarise/wder.ts";
import { normaliseText } from "#app/services/speech/text-normalise.ts";
import { OSCE_TUNING, osceCacheDir, osceDir, readOsceTranscript } from "./osce.ts";

const sets: { evidence: SegmentEvidence[]; segments: { text: string }[]; reference: RoleWord[] }[] = [];
for (const id of OSCE_TUNING) {
  const cachePath = join(osceCacheDir(), `${id}.json`);
  if (!existsSync(cachePath)) throw new Error(`${id} is not decoded yet`);
  const { segments } = JSON.parse(readFileSync(cachePath, "utf8")) as {
    segments: { start: number; end: number; text: string }[];
  };
  const scratch = await mkdtemp(join(tmpdir(), "osce-t-"));
  try {
    const wav = join(scratch, "a.wav");
    await normaliseAudio(join(osceDir(), "audio", `${id}.mp3`), wav);
    const evidence = (await segmentEvidence(wav, segments)) ?? [];
    const reference = readOsceTranscript(id).flatMap((t) =>
      normaliseText(t.text)
        .split(" ")
        .filter(Boolean)
        .map((word) => ({ word, role: t.role })),
    );
    sets.push({ evidence, segments, reference });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function score(tuning: DiariseTuning): { rate: number; wrong: number; correct: number } {
  let wrong = 0;
  let correct = 0;
  for (const set of sets) {
    const roles = assignRoles(set.evidence, tuning);
    const hypothesis = set.segments.flatMap((s, i) =>
      normaliseText(s.text)
        .split(" ")
        .filter(Boolean)
        .map((word) => ({ word, role: roles[i] ?? null })),
    );
    const d = diarisationErrors(set.reference, hypothesis);
    wrong += d.wrongRole;
    correct += d.correctWords;
  }
  return { rate: wrong / correct, wrong, correct };
}

const results: [string, ReturnType<typeof score>][] = [];
for (const voiceWeight of [0, 0.5, 1, 2, 4, 8, 24])
  for (const textCap of [2, 4, 6, 10])
    for (const neighbourWeight of [0, 0.5, 1])
      for (const neighbourGap of [0.5, 1, 2]) {
        if (neighbourWeight === 0 && neighbourGap !== 1) continue;
        const tuning = { ...DEFAULT_TUNING, voiceWeight, textCap, neighbourWeight, neighbourGap };
        results.push([JSON.stringify(tuning), score(tuning)]);
      }
results.sort((a, b) => b[1].rate - a[1].rate);
for (const [tuning, r] of results.slice(-15)) console.log(`${r.rate.toFixed(3)} (${r.wrong}/${r.correct})  ${tuning}`);
console.log(`defaults: ${score(DEFAULT_TUNING).rate.toFixed(3)}`);
