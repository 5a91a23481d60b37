// How much audio is left to decode after Stop (issue 15): the Stop → transcript bench's recording
// stopped at several lengths, with an engine that decodes nothing and pocketsphinx's 30/2 s window
// policy. Windows depend on the audio and the policy, not on the engine, so this is the decoding
// work after Stop without the machine's load or a model's speed in it.
//
//   node bench/asr/stop-windows.ts [--at 240,255,270,285,300]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { SpeechEngine } from "#app/services/speech/engine.ts";
import { readSentences, synthesiseClinical } from "./datasets.ts";
import { stopToTranscript } from "./stop-to-transcript.ts";

const { values } = parseArgs({ options: { at: { type: "string", default: "240,255,270,285,300" } } });
const silentEngine: SpeechEngine = {
  id: "silent",
  languages: ["en"],
  window: { windowSec: 30, overlapSec: 2 },
  supports: () => true,
  transcribe: async (_audio, options) => ({ text: "", segments: [], engine: "silent", language: options.language }),
};
const dir = mkdtempSync(join(tmpdir(), "murmur-stop-windows-"));
try {
  const sentences = readSentences(resolve(import.meta.dirname, "clinical-sentences.txt"));
  const clips = ["en-us+klatt", "en-us+klatt4"].map((voice) => synthesiseClinical(sentences, voice, dir).path);
  for (const at of (values.at ?? "").split(",").map(Number)) {
    const r = await stopToTranscript(silentEngine, clips, dir, at);
    console.log(
      `stop at ${at} s: ${r.windowsAfterStop} of ${r.windowsTotal} windows, ${r.audioAfterStopSec} s of audio left after Stop`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
