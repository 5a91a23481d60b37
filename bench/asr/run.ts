// ASR benchmark: word error rate and real-time factor per configured speech model on three kinds of
// data, reported side by side in one headline table (bench/asr/README.md):
//   real speech    — Debian's pocketsphinx-testdata and ../shared/data/speech-samples (real recordings);
//   conversations  — ACI-Bench and MTS-Dialog dialogues the clinical LM corpus does not contain, a fixed
//                    seeded sample spoken turn by turn by two espeak-ng voices (one per speaker);
//   dictation      — the held-out clinical sentences (bench/asr/clinical-sentences.txt), written by the
//                    team in the LM corpus's style, one recording per espeak-ng voice.
// Plus the time from Stop to transcript for a 5-minute recording with the configured default model.
// ../shared is read here, at bench time, never by the app. It reports; it exits 1 only when nothing
// could be measured.
//
//   node bench/asr/run.ts [--splits real,conversation,dictation] [--engines a,b] [--skip-long | --only-long]
//                         [--dialogues N] [--dialogue-words W] [--seed S] [--dialogue-voices a,b]
//                         [--voices v1,v2] [--sentences N]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { parseSpeechEnv } from "#app/services/speech/config.server.ts";
import type { SpeechEngine } from "#app/services/speech/engine.ts";
import { transcribeLongAudio } from "#app/services/speech/long-audio.server.ts";
import { createOpenAiCompatibleEngine } from "#app/services/speech/openai-compatible.server.ts";
import { createPocketsphinxEngine } from "#app/services/speech/pocketsphinx.server.ts";
import { readWavInfo } from "#app/services/speech/wav.server.ts";
import { errorRate, sumErrors, type WordErrors, wordErrors } from "#app/services/speech/wer.ts";
import { createWhisperEngine } from "#app/services/speech/whisper.server.ts";
import {
  type Clip,
  debianTestdataClips,
  readSentences,
  sampleLabel,
  selectConversations,
  sharedSampleClips,
  synthesiseClinical,
  synthesiseConversation,
} from "./datasets.ts";
import { stopToTranscript } from "./stop-to-transcript.ts";

const PROJECT_DIR = resolve(import.meta.dirname, "../..");
const SPLITS = ["real", "conversation", "dictation"] as const;
type Split = (typeof SPLITS)[number];
const SPLIT_TITLES: Record<Split, string> = {
  real: "real speech",
  conversation: "conversations (synthetic)",
  dictation: "clinical dictation (synthetic)",
};
// Defaults sized so a full run takes ~10 min on 2 shared cores (docs/speech.md).
const DEFAULT_VOICES = ["en-us+klatt", "en-us+klatt4"];
const DEFAULT_DIALOGUE_VOICES = ["en-us+klatt", "en-us+klatt4"] as const;
const DEFAULT_DIALOGUES = 6;
const DEFAULT_DIALOGUE_WORDS = 200;
const DEFAULT_SEED = 20261125;
/** The app's decoder timeout (30 s + 2 × audio) trips on a machine loaded by others; the bench measures accuracy, not that. */
const DECODE_TIMEOUT_MS = 30 * 60_000;

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

interface ClipResult {
  id: string;
  words: number;
  wer: number;
  errors: WordErrors;
  audioSec: number;
  hypothesis: string;
}

interface Row {
  split: Split;
  set: string;
  engine: string;
  clips: number;
  words: number;
  wer: number;
  errors: WordErrors;
  audioSec: number;
  decodeSec: number;
  cpuSec: number;
  rtf: number;
  cpuRtf: number;
  perClip: ClipResult[];
}

interface BenchEngine {
  name: string;
  engine: SpeechEngine;
  /** The model ASR_POCKETSPHINX_MODEL selects (its default when unset): what the app uses. */
  isDefault: boolean;
}

function benchEngines(only: string[] | null): BenchEngine[] {
  const env = parseSpeechEnv({ ...process.env, ASR_ENGINE: "pocketsphinx" });
  const configured = env.ASR_POCKETSPHINX_MODEL;
  const engines: BenchEngine[] = [
    {
      name: "pocketsphinx/stock",
      engine: createPocketsphinxEngine({ languageModel: "stock", timeoutMs: DECODE_TIMEOUT_MS }),
      isDefault: configured === "stock",
    },
    {
      name: "pocketsphinx/conversation",
      engine: createPocketsphinxEngine({ languageModel: "conversation", timeoutMs: DECODE_TIMEOUT_MS }),
      isDefault: configured === "conversation",
    },
    {
      name: "pocketsphinx/clinical",
      engine: createPocketsphinxEngine({ languageModel: "clinical", timeoutMs: DECODE_TIMEOUT_MS }),
      isDefault: configured === "clinical",
    },
  ];
  if (configured !== "stock" && configured !== "clinical" && configured !== "conversation") {
    // ASR_POCKETSPHINX_MODEL=<lm>:<dict>: measured beside the two built-in models.
    const [lm = "", dict = ""] = configured.split(":");
    engines.push({
      name: "pocketsphinx/custom",
      engine: createPocketsphinxEngine({ languageModel: { lm, dict, name: "custom" }, timeoutMs: DECODE_TIMEOUT_MS }),
      isDefault: true,
    });
  }
  if (env.ASR_OPENAI_BASE_URL) {
    engines.push({
      name: `openai-compatible/${env.ASR_OPENAI_MODEL}`,
      engine: createOpenAiCompatibleEngine({
        baseUrl: env.ASR_OPENAI_BASE_URL,
        apiKey: env.ASR_OPENAI_API_KEY,
        model: env.ASR_OPENAI_MODEL,
      }),
      isDefault: false,
    });
  }
  if (env.ASR_WHISPER_MODEL) {
    // A real model the operator brought (docs/speech.md "Whisper model"); verified like in the app.
    engines.push({
      name: `whisper/${basename(env.ASR_WHISPER_MODEL).replace(/^ggml-|\.bin$/g, "")}`,
      engine: createWhisperEngine({
        modelPath: resolve(env.ASR_WHISPER_MODEL),
        allowUnknown: env.ASR_WHISPER_ALLOW_UNKNOWN,
        threads: env.ASR_WHISPER_THREADS,
        timeoutMs: DECODE_TIMEOUT_MS,
      }),
      isDefault: false,
    });
  }
  return only ? engines.filter((e) => only.some((o) => e.name.startsWith(o))) : engines;
}

/** Why the headline has no whisper row, or null when it has one. */
function whisperAbsence(engines: BenchEngine[]): string | null {
  if (engines.some((e) => e.name.startsWith("whisper/"))) return null;
  return process.env.ASR_WHISPER_MODEL
    ? "No whisper row: --engines left it out."
    : 'No whisper row: ASR_WHISPER_MODEL is not set. No Whisper weights exist on this machine; bring a published ggml model (docs/speech.md "Whisper model") and run with ASR_WHISPER_MODEL=/path/to/ggml-base.en.bin.';
}

async function prepare(clip: Clip, directory: string, index: string): Promise<{ wav: string; durationSec: number }> {
  const wav = join(directory, `clip-${index}.wav`);
  if (clip.raw) {
    execFileSync("ffmpeg", [
      ...["-nostdin", "-loglevel", "error", "-y"],
      ...["-f", "s16le", "-ar", "16000", "-ac", "1", "-i", clip.path, wav],
    ]);
    return { wav, durationSec: (await readWavInfo(wav)).durationSec };
  }
  const normalised = await normaliseAudio(clip.path, wav);
  return { wav, durationSec: normalised.durationSec };
}

let prepared = 0;

async function measure(split: Split, set: string, clips: Clip[], engines: BenchEngine[], directory: string): Promise<Row[]> {
  const ready = [];
  for (const clip of clips) ready.push({ clip, ...(await prepare(clip, directory, String(prepared++))) });
  const rows: Row[] = [];
  for (const { name, engine } of engines) {
    const perClip: ClipResult[] = [];
    let decodeSec = 0;
    let cpuSec = 0;
    for (const { clip, wav, durationSec } of ready) {
      const started = performance.now();
      const cpuBefore = childCpuSec();
      const result = await transcribeLongAudio(engine, wav, { language: "en" });
      decodeSec += (performance.now() - started) / 1000;
      cpuSec += childCpuSec() - cpuBefore;
      const errors = wordErrors(clip.reference, result.text);
      perClip.push({
        id: clip.id,
        words: errors.referenceWords,
        wer: errorRate(errors),
        errors,
        audioSec: durationSec,
        hypothesis: result.text,
      });
      if (process.env.ASR_BENCH_VERBOSE) console.log(`  ${name} ${clip.id}: ${result.text}`);
    }
    const total = sumErrors(perClip.map((c) => c.errors));
    const audioSec = perClip.reduce((s, c) => s + c.audioSec, 0);
    const row: Row = {
      split,
      set,
      engine: name,
      clips: clips.length,
      words: total.referenceWords,
      wer: errorRate(total),
      errors: total,
      audioSec,
      decodeSec,
      cpuSec,
      rtf: decodeSec / audioSec,
      cpuRtf: cpuSec / audioSec,
      perClip,
    };
    rows.push(row);
    console.log(
      `  ${set} · ${name}: WER ${row.wer.toFixed(3)} (${row.words} words, ${audioSec.toFixed(0)} s), RTF ${row.rtf.toFixed(2)} wall, ${row.cpuRtf.toFixed(2)} CPU`,
    );
  }
  return rows;
}

function markdownTable(header: string[], lines: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? "").length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [format(header), format(widths.map((w) => "-".repeat(w))), ...lines.map(format)].join("\n");
}

function detailTable(rows: Row[]): string {
  return markdownTable(
    ["split", "set", "engine", "clips", "ref words", "WER", "S/D/I", "audio s", "RTF wall", "RTF CPU"],
    rows.map((r) => [
      r.split,
      r.set,
      r.engine,
      String(r.clips),
      String(r.words),
      r.wer.toFixed(3),
      `${r.errors.substitutions}/${r.errors.deletions}/${r.errors.insertions}`,
      r.audioSec.toFixed(1),
      r.rtf.toFixed(2),
      r.cpuRtf.toFixed(2),
    ]),
  );
}

interface Headline {
  engine: string;
  isDefault: boolean;
  splits: Partial<Record<Split, { wer: number; words: number; audioSec: number }>>;
  rtf: number;
  cpuRtf: number;
}

function headlines(rows: Row[], engines: BenchEngine[]): Headline[] {
  return engines.map(({ name, isDefault }) => {
    const mine = rows.filter((r) => r.engine === name);
    const splits: Headline["splits"] = {};
    for (const split of SPLITS) {
      const inSplit = mine.filter((r) => r.split === split);
      if (inSplit.length === 0) continue;
      const total = sumErrors(inSplit.map((r) => r.errors));
      splits[split] = {
        wer: errorRate(total),
        words: total.referenceWords,
        audioSec: inSplit.reduce((s, r) => s + r.audioSec, 0),
      };
    }
    const audioSec = mine.reduce((s, r) => s + r.audioSec, 0);
    return {
      engine: name,
      isDefault,
      splits,
      rtf: mine.reduce((s, r) => s + r.decodeSec, 0) / audioSec,
      cpuRtf: mine.reduce((s, r) => s + r.cpuSec, 0) / audioSec,
    };
  });
}

function headlineTable(lines: Headline[]): string {
  const splits = SPLITS.filter((s) => lines.some((l) => l.splits[s]));
  return markdownTable(
    ["model", ...splits.map((s) => `${SPLIT_TITLES[s]} WER`), "RTF wall", "RTF CPU"],
    lines.map((l) => [
      `${l.engine}${l.isDefault ? " (default)" : ""}`,
      ...splits.map((s) => l.splits[s]?.wer.toFixed(3) ?? "–"),
      l.rtf.toFixed(2),
      l.cpuRtf.toFixed(2),
    ]),
  );
}

const SPLIT_SOURCES: Record<Split, string> = {
  real: "Debian pocketsphinx-testdata (LibriVox Austen, CMU cards + goforward) and shared/data/speech-samples (JFK 1961): real recordings",
  conversation:
    "ACI-Bench + MTS-Dialog validation dialogues (never used to train or tune an LM), seeded sample, espeak-ng one voice per speaker",
  dictation: "bench/asr/clinical-sentences.txt: held out from the LM corpus, but written by the same team in its style",
};

function headlineSources(lines: Headline[]): string {
  return SPLITS.flatMap((s) => {
    const any = lines.find((l) => l.splits[s])?.splits[s];
    return any ? [`  ${SPLIT_TITLES[s]} (${any.words} words, ${Math.round(any.audioSec)} s): ${SPLIT_SOURCES[s]}`] : [];
  }).join("\n");
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      splits: { type: "string" },
      voices: { type: "string" },
      engines: { type: "string" },
      "skip-long": { type: "boolean", default: false },
      "only-long": { type: "boolean", default: false },
      sentences: { type: "string" },
      dialogues: { type: "string" },
      "dialogue-words": { type: "string" },
      "dialogue-voices": { type: "string" },
      seed: { type: "string" },
    },
  });
  const engines = benchEngines(values.engines ? values.engines.split(",") : null);
  const onlyLong = values["only-long"];
  const splits = new Set<Split>(
    onlyLong
      ? []
      : values.splits
        ? (values.splits.split(",").filter((s) => (SPLITS as readonly string[]).includes(s)) as Split[])
        : SPLITS,
  );
  const voices = values.voices ? values.voices.split(",") : DEFAULT_VOICES;
  const dialogueVoices = (values["dialogue-voices"]?.split(",") ?? DEFAULT_DIALOGUE_VOICES) as readonly string[];
  const allSentences = readSentences(join(PROJECT_DIR, "bench/asr/clinical-sentences.txt"));
  const sentences = values.sentences ? allSentences.slice(0, Number(values.sentences)) : allSentences;
  const scratch = mkdtempSync(join(tmpdir(), "murmur-asr-bench-"));
  const rows: Row[] = [];
  const sources: Record<string, unknown> = {};
  try {
    console.log(`Engines: ${engines.map((e) => `${e.name}${e.isDefault ? " (default)" : ""}`).join(", ")}`);
    const noWhisper = whisperAbsence(engines);
    if (noWhisper) console.log(noWhisper);
    if (onlyLong) console.log("--only-long: WER sets skipped");

    if (splits.has("real")) {
      const debian = debianTestdataClips();
      if (debian.length === 0)
        console.log("Debian pocketsphinx-testdata not installed: using shared/data/speech-samples' copies if present");
      const shared = sharedSampleClips(debian.length === 0);
      if (shared.length === 0) console.log("shared/data/speech-samples absent: skipped");
      const sets = [...debian, ...shared];
      for (const set of [...new Set(sets.map((c) => c.set))]) {
        const clips = sets.filter((c) => c.set === set);
        rows.push(...(await measure("real", set, clips, engines, scratch)));
      }
      sources.real = sets.map((c) => ({ set: c.set, id: c.id }));
    }

    if (splits.has("conversation")) {
      const [a = DEFAULT_DIALOGUE_VOICES[0], b = a] = dialogueVoices;
      const selection = selectConversations({
        count: Number(values.dialogues ?? DEFAULT_DIALOGUES),
        words: Number(values["dialogue-words"] ?? DEFAULT_DIALOGUE_WORDS),
        seed: Number(values.seed ?? DEFAULT_SEED),
        voices: [a, b],
      });
      if (selection.samples.length === 0) console.log("shared/data/aci-bench and mts-dialog absent: conversations skipped");
      else {
        console.log(
          `Conversations: ${selection.samples.length} of ${selection.available.aci} ACI-Bench + ${selection.available.mts} MTS-Dialog dialogues ` +
            `(${selection.excluded.length} left out: they share a sentence with the clinical LM corpus)`,
        );
        const clips = selection.samples.map((sample, i) => {
          console.log(`  ${sampleLabel(sample)}`);
          return synthesiseConversation(sample, scratch, i);
        });
        for (const set of [...new Set(clips.map((c) => c.set))]) {
          rows.push(
            ...(await measure(
              "conversation",
              set,
              clips.filter((c) => c.set === set),
              engines,
              scratch,
            )),
          );
        }
        sources.conversation = {
          seed: Number(values.seed ?? DEFAULT_SEED),
          samples: selection.samples.map(sampleLabel),
          excluded: selection.excluded,
        };
      }
    }

    const dictationWavs: string[] = [];
    if (splits.has("dictation") || !values["skip-long"]) {
      for (const voice of voices) {
        const clip = synthesiseClinical(sentences, voice, scratch);
        if (voice.includes("klatt")) dictationWavs.push(clip.path);
        if (splits.has("dictation")) rows.push(...(await measure("dictation", clip.set, [clip], engines, scratch)));
      }
      sources.dictation = { sentences: sentences.length, file: "bench/asr/clinical-sentences.txt", voices };
    }

    const headline = headlines(rows, engines);
    if (rows.length > 0) {
      console.log(
        "\nPer set (WER over all reference words of a set; RTF = decode time / audio duration, wall clock and decoder CPU):\n",
      );
      console.log(detailTable(rows));
      const conversationRows = rows.filter((r) => r.split === "conversation");
      if (conversationRows.length > 0) {
        console.log("\nPer dialogue (conversations):\n");
        const ids = conversationRows.filter((r) => r.engine === engines[0]?.name).flatMap((r) => r.perClip.map((c) => c.id));
        console.log(
          markdownTable(
            ["dialogue", "words", ...engines.map((e) => e.name)],
            ids.map((id) => {
              const cells = engines.map((e) =>
                conversationRows
                  .filter((r) => r.engine === e.name)
                  .flatMap((r) => r.perClip)
                  .find((c) => c.id === id),
              );
              return [id, String(cells[0]?.words ?? ""), ...cells.map((c) => c?.wer.toFixed(3) ?? "–")];
            }),
          ),
        );
      }
      console.log("\nHeadline (WER pooled over each split's reference words; RTF over every clip):\n");
      console.log(headlineTable(headline));
      const absent = whisperAbsence(engines);
      if (absent) console.log(`\n${absent}`);
      console.log(`\n${headlineSources(headline)}`);
      const candidates = headline.filter((h) => h.splits.real && h.splits.conversation);
      const score = (h: Headline) => ((h.splits.real?.wer ?? 1) + (h.splits.conversation?.wer ?? 1)) / 2;
      const best = candidates.sort((x, y) => score(x) - score(y))[0];
      if (best) {
        const current = headline.find((h) => h.isDefault);
        console.log(
          `\nLowest mean of real-speech and conversation WER: ${best.engine} (${score(best).toFixed(3)}); configured default: ${current?.engine ?? "not measured"}` +
            (current && current.engine !== best.engine
              ? "  ← the default is not the best model on real and conversational speech"
              : ""),
        );
        // Issue 15's rule for a new default: never worse than the stock model on any set.
        const stockRows = rows.filter((r) => r.engine === "pocketsphinx/stock");
        for (const h of headline.filter((x) => x.engine !== "pocketsphinx/stock")) {
          const worse = stockRows
            .map((stock) => ({ stock, other: rows.find((r) => r.engine === h.engine && r.set === stock.set) }))
            .filter(({ stock, other }) => other && other.wer > stock.wer)
            .map(({ stock, other }) => `${stock.set} ${other?.wer.toFixed(3)} > ${stock.wer.toFixed(3)}`);
          if (stockRows.length > 0)
            console.log(
              `${h.engine}: ${worse.length === 0 ? "never worse than stock on any set" : `worse than stock on ${worse.join(", ")}`}`,
            );
        }
      }
    }

    let long: Awaited<ReturnType<typeof stopToTranscript>> | null = null;
    const primary = engines.find((e) => e.isDefault) ?? engines[0];
    if (!values["skip-long"] && primary && dictationWavs.length > 0) {
      long = await stopToTranscript(primary.engine, dictationWavs, scratch);
      console.log(
        `\nStop → transcript, ${long.audioSec} s webm/opus recording, ${primary.name} (target ≤ 15 s):\n` +
          `  transcribing while recording: ${long.streamingSec.toFixed(1)} s, ${long.streamingCpuSec.toFixed(1)} s CPU (${long.windowsAfterStop} of ${long.windowsTotal} windows, ${long.audioAfterStopSec} s of audio left after Stop; ` +
          `${long.livePasses} live passes, longest ${long.longestLivePassSec.toFixed(1)} s; same transcript as batch: ${long.sameTranscript})\n` +
          `  batch (everything after Stop): ${long.batchSec.toFixed(1)} s, ${long.batchCpuSec.toFixed(1)} s CPU`,
      );
    }
    const resultsDir = join(PROJECT_DIR, "bench/results");
    mkdirSync(resultsDir, { recursive: true });
    const out = join(resultsDir, `asr-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      out,
      `${JSON.stringify({ headline, rows, long, sources, engines: engines.map((e) => e.name), longEngine: primary?.name }, null, 2)}\n`,
    );
    console.log(`\nSaved ${out}`);
    return rows.length > 0 || long ? 0 : 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

process.exitCode = await main();
