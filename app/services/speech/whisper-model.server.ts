import { createHash } from "node:crypto";
import { closeSync, createReadStream, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { SpeechError } from "#app/services/speech/errors.ts";
import { KNOWN_WHISPER_MODELS, knownWhisperModelBySha1 } from "#app/services/speech/whisper-known-models.ts";
import { GGML_MAGIC } from "#app/services/speech/whisper-mini-model.ts";

/** What Murmur reports about a Whisper model file once it is verified (ADR 0029). */
export interface WhisperModelInfo {
  path: string;
  /** A known model's name ("base.en"), or "unverified:<file name>" when ASR_WHISPER_ALLOW_UNKNOWN let it in. */
  name: string;
  sha1: string;
  known: boolean;
  multilingual: boolean;
  sizeBytes: number;
  /** Stored with every transcript: name and short checksum, e.g. "base.en@137c4040". */
  label: string;
}

export interface WhisperHeader {
  nVocab: number;
  nAudioLayer: number;
  multilingual: boolean;
}

/**
 * The model to use: ASR_WHISPER_MODEL when set, else a `ggml-*.bin` under MURMUR_DATA_DIR/models/
 * (the most capable known name when several are there). Null when there is none.
 */
export function findWhisperModel(options: { explicitPath?: string | undefined; dataDir: string }): string | null {
  if (options.explicitPath) return resolve(options.explicitPath);
  const dir = resolve(options.dataDir, "models");
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir).filter((f) => /^ggml-.+\.bin$/.test(f));
  if (files.length === 0) return null;
  // The known table lists models smallest first; a later one transcribes better.
  const rank = (f: string) => KNOWN_WHISPER_MODELS.findIndex((m) => m.file === f);
  const best = [...files].sort((a, b) => rank(b) - rank(a) || a.localeCompare(b))[0] as string;
  return join(dir, best);
}

/**
 * Reads the first 48 bytes: the GGML magic and the hyper-parameters whisper.cpp reads first.
 * Cheap and synchronous, so the engine knows its languages when it is built.
 */
export function readWhisperHeader(path: string): WhisperHeader {
  if (!existsSync(path)) throw new SpeechError("model_missing", `no Whisper model file at ${path}`);
  const buffer = Buffer.alloc(48);
  const fd = openSync(path, "r");
  let read: number;
  try {
    read = readSync(fd, buffer, 0, 48, 0);
  } finally {
    closeSync(fd);
  }
  if (read >= 4 && buffer.toString("ascii", 0, 4) === "GGUF") {
    throw new SpeechError("model_corrupt", `${basename(path)} is a GGUF file; whisper.cpp loads only GGML "ggml-*.bin" models`);
  }
  if (read < 48 || buffer.readUInt32LE(0) !== GGML_MAGIC) {
    throw new SpeechError("model_corrupt", `${basename(path)} is not a whisper.cpp GGML model (bad magic header)`);
  }
  const nVocab = buffer.readInt32LE(4);
  const nAudioLayer = buffer.readInt32LE(20);
  if (nVocab < 51864 || nVocab > 52000 || nAudioLayer < 1 || nAudioLayer > 64) {
    throw new SpeechError("model_corrupt", `${basename(path)} has implausible Whisper dimensions`);
  }
  // whisper.cpp's own rule (whisper_vocab::is_multilingual).
  return { nVocab, nAudioLayer, multilingual: nVocab >= 51865 };
}

async function sha1Of(path: string): Promise<string> {
  const hash = createHash("sha1");
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

// Hashing a 1.5 GB model takes seconds: once per file version per process.
const verified = new Map<string, Promise<WhisperModelInfo>>();

/**
 * Header check, then the SHA-1 against the published list. An unknown checksum is refused unless
 * allowUnknown (ASR_WHISPER_ALLOW_UNKNOWN, refused in production by the env rules): that is how
 * tests and development load the miniature model of scripts/make-mini-whisper-model.ts.
 */
export function verifyWhisperModel(path: string, options: { allowUnknown: boolean }): Promise<WhisperModelInfo> {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return Promise.reject(new SpeechError("model_missing", `no Whisper model file at ${path}`));
  }
  const key = `${path}|${stat.size}|${stat.mtimeMs}|${options.allowUnknown}`;
  let pending = verified.get(key);
  if (!pending) {
    pending = (async () => {
      const header = readWhisperHeader(path);
      const sha1 = await sha1Of(path);
      const known = knownWhisperModelBySha1(sha1);
      if (!known && !options.allowUnknown) {
        throw new SpeechError(
          "model_unknown",
          `${basename(path)} (SHA-1 ${sha1}) is not one of the published whisper.cpp models; see docs/speech.md "Whisper model"`,
        );
      }
      if (known && known.multilingual !== header.multilingual) {
        throw new SpeechError("model_corrupt", `${basename(path)} matches ${known.name} by checksum but not by header`);
      }
      const name = known ? known.name : `unverified:${basename(path)}`;
      return {
        path,
        name,
        sha1,
        known: Boolean(known),
        multilingual: header.multilingual,
        sizeBytes: Number(stat.size),
        label: `${name}@${sha1.slice(0, 8)}`,
      };
    })();
    verified.set(key, pending);
    // A failure is not cached: the practice may fix the file and retry without a restart.
    pending.catch(() => verified.delete(key));
  }
  return pending;
}
