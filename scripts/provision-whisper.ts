// Set-up's Whisper step (issue 26; called by scripts/setup.sh): downloads a published whisper.cpp
// model into $MURMUR_DATA_DIR/models/ and checks its SHA-1. Always exits 0: without a model the
// embedded engine is used, and set-up says so in one line.
//   node scripts/provision-whisper.ts [--model base] [--base-url URL] [--connect-timeout-ms 15000]
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  DEFAULT_WHISPER_MODEL,
  provisionWhisperModel,
  WHISPER_DOWNLOAD_BASE,
} from "#app/services/speech/whisper-download.server.ts";

const { values } = parseArgs({
  options: {
    model: { type: "string", default: process.env.MURMUR_WHISPER_MODEL || DEFAULT_WHISPER_MODEL },
    "base-url": { type: "string", default: process.env.MURMUR_WHISPER_BASE_URL || WHISPER_DOWNLOAD_BASE },
    "connect-timeout-ms": { type: "string", default: "15000" },
    "idle-timeout-ms": { type: "string", default: "30000" },
    "total-timeout-ms": { type: "string", default: String(20 * 60_000) },
  },
});
const modelsDir = resolve(process.env.MURMUR_DATA_DIR || "./data", "models");
let lastShown = 0;
const outcome = await provisionWhisperModel({
  model: values.model,
  modelsDir,
  baseUrl: values["base-url"],
  connectTimeoutMs: Number(values["connect-timeout-ms"]),
  idleTimeoutMs: Number(values["idle-timeout-ms"]),
  totalTimeoutMs: Number(values["total-timeout-ms"]),
  onProgress: (bytes, total) => {
    if (!process.stdout.isTTY || Date.now() - lastShown < 1000) return;
    lastShown = Date.now();
    process.stdout.write(
      `\rWhisper ${values.model}: ${(bytes / 2 ** 20).toFixed(0)}${total ? ` of ${(total / 2 ** 20).toFixed(0)}` : ""} MiB`,
    );
  },
});
if (process.stdout.isTTY && lastShown > 0) process.stdout.write("\n");
console.log(
  outcome.ok
    ? `Whisper model ${values.model}: ${outcome.status === "present" ? "already in place" : "downloaded and verified"} (${outcome.path}).`
    : `Whisper model ${values.model} not installed (${outcome.status}: ${outcome.message}); the embedded engine will be used.`,
);
