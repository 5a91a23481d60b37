// ASR benchmark: word error rate and real-time factor per available engine on (a) real speech —
// Debian's pocketsphinx-testdata and ../shared/data/speech-samples when present — and (b) the
// held-out clinical sentences spoken by several espeak-ng voices, stock LM vs clinical LM; plus
// the time from Stop to transcript for a 5-minute recording. It reports; it exits 1 only when
// nothing could be measured. See bench/asr/README.md.
//
//   node bench/asr/run.ts [--voices v1,v2] [--engines a,b] [--skip-long | --only-long] [--sentences N]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { parseSpeechEnv } from "#app/services/speech/config.server.ts";
import type { SpeechEngine } from "#app/services/speech/engine.ts";
import { transcribeLongAudio } from "#app/services/speech/long-audio.server.ts";
import { createOpenAiCompatibleEngine } from "#app/services/speech/openai-compatible.server.ts";
import { createPocketsphinxEngine } from "#app/services/speech/pocketsphinx.server.ts";
import { readWavInfo } from "#app/services/speech/wav.server.ts";
import { errorRate, sumErrors, type WordErrors, wordErrors } from "#app/services/speech/wer.ts";
import { type Clip, debianTestdataClips, readSentences, sharedSampleClips, synthesiseClinical } from "./datasets.ts";
import { stopToTranscript } from "./stop-to-transcript.ts";

const PROJECT_DIR = resolve(import.meta.dirname, "../..");
const DEFAULT_VOICES = ["en-us+klatt", "en-us+klatt4", "en-gb-x-rp+klatt", "en-us"];

/**
 * CPU seconds used by finished child processes (decoders, ffmpeg): cutime + cstime from
 * /proc/self/stat. Wall time on a shared 2-core machine includes other people's work; this does not.
 */
function childCpuSec(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

interface Row {
  set: string;
  engine: string;
  clips: number;
  words: number;
  wer: number;
  errors: WordErrors;
  audioSec: number;
  decodeSec: number;
  rtf: number;
  cpuRtf: number;
}

function benchEngines(only: string[] | null): { name: string; engine: SpeechEngine }[] {
  const engines = [
    { name: "pocketsphinx/clinical", engine: createPocketsphinxEngine({ languageModel: "clinical" }) },
    { name: "pocketsphinx/stock", engine: createPocketsphinxEngine({ languageModel: "stock" }) },
  ];
  const env = parseSpeechEnv({ ...process.env, ASR_ENGINE: "pocketsphinx" });
  if (env.ASR_OPENAI_BASE_URL) {
    engines.push({
      name: `openai-compatible/${env.ASR_OPENAI_MODEL}`,
      engine: createOpenAiCompatibleEngine({
        baseUrl: env.ASR_OPENAI_BASE_URL,
        apiKey: env.ASR_OPENAI_API_KEY,
        model: env.ASR_OPENAI_MODEL,
      }),
    });
  }
  return only ? engines.filter((e) => only.some((o) => e.name.startsWith(o))) : engines;
}

async function prepare(clip: Clip, directory: string, index: number): Promise<{ wav: string; durationSec: number }> {
  const wav = join(directory, `clip-${index}.wav`);
  if (clip.raw) {
    execFileSync("ffmpeg", [
      "-nostdin",
      "-loglevel",
      "error",
      "-y",
      "-f",
      "s16le",
      "-ar",
      "16000",
      "-ac",
      "1",
      "-i",
      clip.path,
      wav,
    ]);
    return { wav, durationSec: (await readWavInfo(wav)).durationSec };
  }
  const normalised = await normaliseAudio(clip.path, wav);
  return { wav, durationSec: normalised.durationSec };
}

async function measure(
  set: string,
  clips: Clip[],
  engines: { name: string; engine: SpeechEngine }[],
  directory: string,
): Promise<Row[]> {
  const prepared = [];
  for (const [i, clip] of clips.entries()) prepared.push({ clip, ...(await prepare(clip, directory, i)) });
  const rows: Row[] = [];
  for (const { name, engine } of engines) {
    const errors: WordErrors[] = [];
    let decodeSec = 0;
    let cpuSec = 0;
    let audioSec = 0;
    for (const { clip, wav, durationSec } of prepared) {
      const started = performance.now();
      const cpuBefore = childCpuSec();
      const result = await transcribeLongAudio(engine, wav, { language: "en" });
      decodeSec += (performance.now() - started) / 1000;
      cpuSec += childCpuSec() - cpuBefore;
      audioSec += durationSec;
      errors.push(wordErrors(clip.reference, result.text));
      if (process.env.ASR_BENCH_VERBOSE) console.log(`  ${name} ${clip.id}: ${result.text}`);
    }
    const total = sumErrors(errors);
    rows.push({
      set,
      engine: name,
      clips: clips.length,
      words: total.referenceWords,
      wer: errorRate(total),
      errors: total,
      audioSec,
      decodeSec,
      rtf: decodeSec / audioSec,
      cpuRtf: cpuSec / audioSec,
    });
    console.log(
      `  ${set} · ${name}: WER ${errorRate(total).toFixed(3)}, RTF ${(decodeSec / audioSec).toFixed(3)} wall, ${(cpuSec / audioSec).toFixed(3)} CPU`,
    );
  }
  return rows;
}

function table(rows: Row[]): string {
  const header = ["set", "engine", "clips", "ref words", "WER", "S/D/I", "audio s", "RTF wall", "RTF CPU"];
  const lines = rows.map((r) => [
    r.set,
    r.engine,
    String(r.clips),
    String(r.words),
    r.wer.toFixed(3),
    `${r.errors.substitutions}/${r.errors.deletions}/${r.errors.insertions}`,
    r.audioSec.toFixed(1),
    r.rtf.toFixed(3),
    r.cpuRtf.toFixed(3),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? "").length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [format(header), format(widths.map((w) => "-".repeat(w))), ...lines.map(format)].join("\n");
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      voices: { type: "string" },
      engines: { type: "string" },
      "skip-long": { type: "boolean", default: false },
      "only-long": { type: "boolean", default: false },
      sentences: { type: "string" },
    },
  });
  const engines = benchEngines(values.engines ? values.engines.split(",") : null);
  const voices = values.voices ? values.voices.split(",") : DEFAULT_VOICES;
  const allSentences = readSentences(join(PROJECT_DIR, "bench/asr/clinical-sentences.txt"));
  const sentences = values.sentences ? allSentences.slice(0, Number(values.sentences)) : allSentences;
  const scratch = mkdtempSync(join(tmpdir(), "murmur-asr-bench-"));
  const rows: Row[] = [];
  try {
    console.log(`Engines: ${engines.map((e) => e.name).join(", ")}`);
    const onlyLong = values["only-long"];
    const debian = onlyLong ? [] : debianTestdataClips();
    if (debian.length === 0)
      console.log("(a) Debian pocketsphinx-testdata not installed (apt-get install pocketsphinx-testdata): skipped");
    for (const set of [...new Set(debian.map((c) => c.set))]) {
      rows.push(
        ...(await measure(
          set,
          debian.filter((c) => c.set === set),
          engines,
          scratch,
        )),
      );
    }
    const shared = onlyLong ? [] : sharedSampleClips();
    if (onlyLong) console.log("--only-long: WER sets skipped");
    else if (shared.length === 0) console.log("(a) ../shared/data/speech-samples absent: skipped");
    else rows.push(...(await measure("shared-samples", shared, engines, scratch)));

    const clinicalWavs: string[] = [];
    for (const voice of voices) {
      const clip = synthesiseClinical(sentences, voice, scratch);
      clinicalWavs.push(clip.path);
      if (!onlyLong) rows.push(...(await measure(clip.set, [clip], engines, scratch)));
    }

    console.log("\nWER; real-time factor = decode time / audio duration (wall clock, and decoder CPU time):\n");
    console.log(table(rows));

    let long: Awaited<ReturnType<typeof stopToTranscript>> | null = null;
    const primary = engines[0];
    if (!values["skip-long"] && primary) {
      const recognisable = clinicalWavs.slice(0, Math.max(1, clinicalWavs.length - 1));
      long = await stopToTranscript(primary.engine, recognisable, scratch);
      console.log(
        `\nStop → transcript, ${long.audioSec} s webm/opus recording, ${primary.name} (target ≤ 15 s):\n` +
          `  transcribing while recording: ${long.streamingSec.toFixed(1)} s (${long.windowsAfterStop} of ${long.windowsTotal} windows left after Stop; ` +
          `${long.livePasses} live passes, longest ${long.longestLivePassSec.toFixed(1)} s; same transcript as batch: ${long.sameTranscript})\n` +
          `  batch (everything after Stop): ${long.batchSec.toFixed(1)} s`,
      );
    }
    const resultsDir = join(PROJECT_DIR, "bench/results");
    mkdirSync(resultsDir, { recursive: true });
    const out = join(resultsDir, `asr-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(out, `${JSON.stringify({ rows, long, voices, engines: engines.map((e) => e.name) }, null, 2)}\n`);
    console.log(`\nSaved ${out}`);
    return rows.length > 0 ? 0 : 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

process.exitCode = await main();
