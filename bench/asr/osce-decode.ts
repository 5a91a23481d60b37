/**
 * Decodes OSCE interviews (../shared/data/osce-fareez) once with the default embedded engine and
 * keeps each one's segments with word times in bench/results/osce-cache/<ID>.json (git-ignored),
 * so diarisation can be scored and tuned without decoding again.
 *   nice -n 10 node bench/asr/osce-decode.ts CAR0002 GAS0002
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { transcribeLongAudio } from "#app/services/speech/long-audio.server.ts";
import { createPocketsphinxEngine } from "#app/services/speech/pocketsphinx.server.ts";
import { extractWavRange, readWavInfo } from "#app/services/speech/wav.server.ts";
import { osceCacheDir, osceDir } from "./osce.ts";

const engine = createPocketsphinxEngine({
  languageModel: process.env.OSCE_LM === "stock" ? "stock" : "conversation",
  timeoutMs: 600_000,
});
mkdirSync(osceCacheDir(), { recursive: true });
for (const id of process.argv.slice(2)) {
  const out = join(osceCacheDir(), `${id}.json`);
  if (existsSync(out)) continue;
  const scratch = await mkdtemp(join(tmpdir(), "osce-"));
  try {
    const wav = join(scratch, "a.wav");
    let audio = await normaliseAudio(join(osceDir(), "audio", `${id}.mp3`), wav);
    // OSCE_MAX_SEC: only the first N seconds (a shared 2-core machine: the least audio that gives a figure).
    const maxSec = Number(process.env.OSCE_MAX_SEC) || 0;
    if (maxSec > 0 && audio.durationSec > maxSec) {
      const trimmed = join(scratch, "trimmed.wav");
      await extractWavRange(wav, await readWavInfo(wav), 0, maxSec, trimmed);
      audio = { ...audio, path: trimmed, durationSec: maxSec };
    }
    const started = performance.now();
    const lanes = Number(process.env.OSCE_LANES) || 1;
    const result = await transcribeLongAudio(engine, audio.path, { language: "en", carry: {}, lanes });
    const wallSec = (performance.now() - started) / 1000;
    writeFileSync(
      out,
      JSON.stringify({
        id,
        engine: result.engine,
        durationSec: audio.durationSec,
        trimmedTo: maxSec || null,
        lanes,
        wallSec,
        segments: result.segments,
      }),
    );
    console.log(`${id}: ${audio.durationSec.toFixed(0)} s audio, ${wallSec.toFixed(0)} s wall`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
