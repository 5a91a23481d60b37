// Renders the first-run sample visit (issue 11 "First run": "a bundled sample conversation to try
// without a microphone") from the team-written dialogue, so its audio is reproducible:
//   - each turn spoken by espeak-ng, one Klatt voice per speaker (the voices pocketsphinx's en-us
//     acoustic model recognises; docs/speech.md), 0.7 s of silence between turns;
//   - joined and encoded by ffmpeg as 16 kHz mono Opus in Ogg (a few kB per second, so the
//     committed file stays small; the pipeline decodes it like any phone or browser recording).
// The app streams the committed file; it never runs espeak-ng.
//
//   node scripts/build-sample-visit.ts [--lang en] [--bitrate 32k]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { parseDialogue, type SampleSpeaker } from "#app/services/onboarding/sample-visit/dialogue.ts";

const VOICES: Record<SampleSpeaker, string> = { clinician: "en-us+klatt", patient: "en-us+klatt4" };
const WORDS_PER_MINUTE = 150;
const PAUSE_SEC = 0.7;

const { values } = parseArgs({
  options: { lang: { type: "string", default: "en" }, bitrate: { type: "string", default: "32k" } },
});
const dir = resolve("app/services/onboarding/sample-visit");
const turns = parseDialogue(readFileSync(join(dir, `dialogue.${values.lang}.txt`), "utf8"));
const work = mkdtempSync(join(tmpdir(), "murmur-sample-visit-"));
try {
  const list: string[] = [];
  const silence = join(work, "silence.wav");
  execFileSync("ffmpeg", [
    "-nostdin",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "anullsrc=r=16000:cl=mono",
    "-t",
    String(PAUSE_SEC),
    "-c:a",
    "pcm_s16le",
    silence,
  ]);
  for (const [index, turn] of turns.entries()) {
    const spoken = join(work, `turn-${index}.wav`);
    const resampled = join(work, `turn-${index}-16k.wav`);
    execFileSync("espeak-ng", ["-v", VOICES[turn.speaker], "-s", String(WORDS_PER_MINUTE), "-w", spoken, turn.text]);
    execFileSync("ffmpeg", [
      "-nostdin",
      "-loglevel",
      "error",
      "-y",
      "-i",
      spoken,
      "-ar",
      "16000",
      "-ac",
      "1",
      "-c:a",
      "pcm_s16le",
      resampled,
    ]);
    if (index > 0) list.push(`file '${silence}'`);
    list.push(`file '${resampled}'`);
  }
  const listFile = join(work, "list.txt");
  writeFileSync(listFile, `${list.join("\n")}\n`);
  const out = join(dir, `sample-visit.${values.lang}.ogg`);
  // -map_metadata -1 and -fflags +bitexact: no encoder version or date in the file, so a rebuild
  // with the same tools gives the same bytes.
  execFileSync("ffmpeg", [
    "-nostdin",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "concat",
    "-safe",
    "0",
    "-i",
    listFile,
    "-ar",
    "16000",
    "-ac",
    "1",
    "-c:a",
    "libopus",
    "-b:a",
    values.bitrate ?? "32k",
    "-application",
    "voip",
    "-map_metadata",
    "-1",
    "-fflags",
    "+bitexact",
    "-flags:a",
    "+bitexact",
    out,
  ]);
  console.log(`${out}: ${turns.length} turns, ${statSync(out).size} bytes`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
