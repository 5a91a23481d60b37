/**
 * Decodes OSCE interviews (../shared/data/osce-fareez) once with the default embedded engine and
 * keeps each one's segments with word times in bench/results/osce-cache/<ID>.json (git-ignored),
 * so diarisation can be scored and tuned without decoding again.
 *   nice -n 10 node bench/asr/osce-decode.ts CAR0002 GAS0002
 */
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { transcribeLongAudio } from "#app/services/speech/long-audio.server.ts";
import { createPocketsphinxEngine } from "#app/services/speech/pocketsphinx.server.ts";
import { osceDir, osceCacheDir } from "./osce.ts";

const engine = createPocketsphinxEngine({ languageModel: process.env.OSCE_LM === "stock" ? "stock" : "conversation", timeoutMs: 600_000 });
mkdirSync(osceCacheDir(), { recursive: true });
for (const id of process.argv.slice(2)) {
  const out = join(osceCacheDir(), `${id}.json`);
  if (existsSync(out)) continue;
  const scratch = await mkdtemp(join(tmpdir(), "osce-"));
  try {
    const wav = join(scratch, "a.wav");
    const audio = await normaliseAudio(join(osceDir(), "audio", `${id}.mp3`), wav);
    const started = performance.now();
    const result = await transcribeLongAudio(engine, wav, { language: "en", carry: {} });
    const wallSec = (performance.now() - started) / 1000;
    writeFileSync(out, JSON.stringify({ id, engine: result.engine, durationSec: audio.durationSec, wallSec, segments: result.segments }));
    console.log(`${id}: ${audio.durationSec.toFixed(0)} s audio, ${wallSec.toFixed(0)} s wall`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
