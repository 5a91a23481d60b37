// Child process of the Whisper engine (whisper.server.ts): loads one GGML model with
// @napi-rs/whisper (whisper.cpp), decodes one 16 kHz mono 16-bit WAV and prints one JSON line per
// segment on stdout, then {"type":"done"}. It runs out of the web process because whisper_full()
// is a synchronous native call that holds its thread for the whole decode, and because killing the
// process is the only way to stop it (the binding's abort callback cannot be driven from JS while
// the call blocks). Self-contained on purpose (no #app imports): it is started with plain `node`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

interface WorkerArgs {
  model: string;
  wav: string;
  language: string;
  threads: number;
  /** Word-level segments (maxLen 1 + splitOnWord + token timestamps); the parent regroups them. */
  words: boolean;
  /** The organisation's vocabulary as an initial prompt (whisper-prompt.ts); absent: none. */
  prompt?: string;
}

interface BindingSegment {
  text: string;
  start: number;
  end: number;
}

function emit(value: Record<string, unknown>) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

function fail(code: string, message: string): never {
  emit({ type: "error", code, message: message.slice(0, 300) });
  process.exit(2);
}

/** Samples of a canonical PCM WAV as floats in [-1, 1] (the parent checked the format). */
function readPcm(path: string): Float32Array {
  const bytes = readFileSync(path);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString("ascii", offset, offset + 4);
    const size = view.getUint32(offset + 4, true);
    if (id === "data") {
      const end = Math.min(bytes.length, offset + 8 + size);
      const count = Math.floor((end - offset - 8) / 2);
      const out = new Float32Array(count);
      for (let i = 0; i < count; i++) out[i] = view.getInt16(offset + 8 + 2 * i, true) / 32768;
      return out;
    }
    offset += 8 + size + (size % 2);
  }
  fail("audio_unreadable", "no data chunk in WAV");
}

const args = JSON.parse(process.argv[2] ?? "{}") as WorkerArgs;
const require = createRequire(import.meta.url);
let binding: typeof import("@napi-rs/whisper");
try {
  binding = require("@napi-rs/whisper") as typeof import("@napi-rs/whisper");
} catch (error) {
  fail("engine_unavailable", `@napi-rs/whisper did not load: ${error instanceof Error ? error.message : String(error)}`);
}
const { Whisper, WhisperFullParams, WhisperSamplingStrategy } = binding;

let whisper: InstanceType<typeof Whisper>;
try {
  whisper = new Whisper(args.model);
} catch (error) {
  fail("model_corrupt", `whisper.cpp could not load the model: ${error instanceof Error ? error.message : String(error)}`);
}

const samples = readPcm(args.wav);
const params = new WhisperFullParams(WhisperSamplingStrategy.Greedy);
params.language = args.language;
params.nThreads = Math.max(1, args.threads);
params.translate = false;
params.printProgress = false;
params.printRealtime = false;
if (args.prompt) params.initialPrompt = args.prompt;
if (args.words) {
  params.tokenTimestamps = true;
  params.maxLen = 1;
  params.splitOnWord = true;
}
let received = 0;
params.onNewSegment = (segment: BindingSegment) => {
  received += 1;
  // whisper.cpp times are centiseconds.
  emit({ type: "segment", text: segment.text, start: segment.start / 100, end: segment.end / 100 });
};
emit({ type: "loaded", multilingual: whisper.isMultilingual === 1 });
try {
  whisper.full(params, samples);
} catch (error) {
  fail("engine_failed", error instanceof Error ? error.message : String(error));
}

// The binding delivers segments through a thread-safe function: they arrive on the event loop
// after full() returns. Wait until no new one arrives, then exit explicitly (the function keeps
// the loop alive forever otherwise).
let seen = -1;
const settle = () => {
  if (seen === received) {
    emit({ type: "done" });
    process.exit(0);
  }
  seen = received;
  setTimeout(settle, 25);
};
setTimeout(settle, 25);
