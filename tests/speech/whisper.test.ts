import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { createSpeechRegistry, parseSpeechEnv, resolveEngineIds } from "#app/services/speech/config.server.ts";
import type { TranscriptResult } from "#app/services/speech/engine.ts";
import { isSpeechError, type SpeechError } from "#app/services/speech/errors.ts";
import { transcribeLongAudio } from "#app/services/speech/long-audio.server.ts";
import { createWhisperEngine, type WhisperEngine } from "#app/services/speech/whisper.server.ts";
import { KNOWN_WHISPER_MODELS, knownWhisperModelBySha1 } from "#app/services/speech/whisper-known-models.ts";
import { GGML_MAGIC, makeMiniWhisperModel } from "#app/services/speech/whisper-mini-model.ts";
import { findWhisperModel, readWhisperHeader, verifyWhisperModel } from "#app/services/speech/whisper-model.server.ts";
import { groupWords } from "#app/services/speech/whisper-output.ts";
import { makeTempDir, speak } from "#tests/speech/synth.ts";

// Real whisper.cpp (the @napi-rs/whisper prebuilt binary) on a miniature model this suite writes
// with the same code as scripts/make-mini-whisper-model.ts: random weights, so the text is
// nonsense, but loading, decoding, timestamps, errors and cancellation are the real paths.
const LIBRIVOX = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav";
const DECODE_TIMEOUT_MS = 120_000;

let dir: string;
let cleanup: () => Promise<void>;
let englishModel: string;
let multilingualModel: string;
let speech: { path: string; durationSec: number };
let longSpeech: { path: string; durationSec: number };

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  englishModel = join(dir, "mini.en.bin");
  multilingualModel = join(dir, "mini.bin");
  writeFileSync(englishModel, makeMiniWhisperModel({ seed: 1 }));
  writeFileSync(multilingualModel, makeMiniWhisperModel({ seed: 2, multilingual: true }));
  speech = await normaliseAudio(LIBRIVOX, join(dir, "librivox.wav"));
  longSpeech = await normaliseAudio(
    speak("The patient reports a dry cough for three weeks. No fever. Lungs are clear on both sides.", join(dir, "long-src.wav")),
    join(dir, "long.wav"),
  );
});
afterAll(() => cleanup());

function expectTimed(result: TranscriptResult, durationSec: number) {
  expect(result.segments.length).toBeGreaterThan(0);
  let cursor = 0;
  for (const segment of result.segments) {
    expect(segment.text.trim()).not.toBe("");
    expect(segment.start).toBeGreaterThanOrEqual(cursor);
    expect(segment.end).toBeGreaterThanOrEqual(segment.start);
    expect(segment.end).toBeLessThanOrEqual(durationSec);
    expect(segment.words?.length).toBeGreaterThan(0);
    cursor = segment.start;
  }
}

/** Worker processes decoding with `model` right now (ps shows the JSON argument with its path). */
function workersFor(model: string): number {
  const out = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return out.split("\n").filter((l) => l.includes("whisper-worker.ts") && l.includes(model)).length;
}

describe("the miniature GGML model", () => {
  it("is the same file for the same seed, another for another seed, with whisper.cpp's magic and header", () => {
    const a = makeMiniWhisperModel({ seed: 7 });
    expect(Buffer.from(makeMiniWhisperModel({ seed: 7 })).equals(Buffer.from(a))).toBe(true);
    expect(Buffer.from(makeMiniWhisperModel({ seed: 8 })).equals(Buffer.from(a))).toBe(false);
    expect(Buffer.from(a).readUInt32LE(0)).toBe(GGML_MAGIC);
    expect(readWhisperHeader(englishModel)).toMatchObject({ nVocab: 51864, multilingual: false });
    expect(readWhisperHeader(multilingualModel)).toMatchObject({ nVocab: 51865, multilingual: true });
  });

  it("the script writes it too", () => {
    const out = join(dir, "script.bin");
    const printed = execFileSync(process.execPath, ["scripts/make-mini-whisper-model.ts", "--out", out, "--seed", "1"], {
      encoding: "utf8",
    });
    const sha1 = createHash("sha1").update(readFileSync(out)).digest("hex");
    expect(printed).toContain(sha1);
    expect(sha1).toBe(createHash("sha1").update(readFileSync(englishModel)).digest("hex"));
  });
});

describe("whisper engine on real audio", { timeout: DECODE_TIMEOUT_MS }, () => {
  const english = () => createWhisperEngine({ modelPath: englishModel, allowUnknown: true, threads: 1 });

  it("decodes real LibriVox speech out of process into timed segments and words, recording engine and model", async () => {
    const engine = english();
    const streamed: string[] = [];
    const result = await engine.transcribe(speech.path, { language: "en-US", onSegment: (s) => streamed.push(s.text) });
    expectTimed(result, speech.durationSec);
    expect(streamed).toEqual(result.segments.map((s) => s.text));
    const sha1 = createHash("sha1").update(readFileSync(englishModel)).digest("hex");
    expect(result).toMatchObject({ engine: "whisper", model: `unverified:mini.en.bin@${sha1.slice(0, 8)}`, language: "en" });
    expect(await engine.status()).toMatchObject({ ok: true, model: { known: false, multilingual: false, sha1 } });
  });

  it("passes the organisation's vocabulary to whisper.cpp as its initial prompt (English visits)", async () => {
    // Greedy decoding is deterministic: the same audio and model give the same text unless the prompt
    // reached the decoder's context. Random weights, so the text itself means nothing.
    const engine = english();
    const vocabulary = {
      orgId: "org-1",
      version: "v1",
      terms: [
        { word: "xarelto", source: "custom" as const },
        { word: "okafor", source: "clinician" as const },
      ],
    };
    const plain = await engine.transcribe(longSpeech.path, { language: "en" });
    const again = await engine.transcribe(longSpeech.path, { language: "en" });
    const prompted = await engine.transcribe(longSpeech.path, { language: "en", vocabulary });
    expect(again.text).toBe(plain.text);
    expect(prompted.text).not.toBe(plain.text);
  });

  it("accepts audio as bytes too", async () => {
    const result = await english().transcribe(readFileSync(longSpeech.path), { language: "en" });
    expectTimed(result, longSpeech.durationSec);
  });

  it("an English-only model serves English only; a multilingual one serves French and Spanish", async () => {
    const engine = english();
    expect(engine.languages).toEqual(["en"]);
    expect(engine.supports("fr")).toBe(false);
    await expect(engine.transcribe(speech.path, { language: "fr" })).rejects.toMatchObject({ code: "no_engine_for_language" });
    const multi = createWhisperEngine({ modelPath: multilingualModel, allowUnknown: true, threads: 1 });
    expect(multi.languages).toEqual(["en", "fr", "es"]);
    const french = await multi.transcribe(speech.path, { language: "fr-CA" });
    expect(french.language).toBe("fr");
    expectTimed(french, speech.durationSec);
  });

  it("goes through the long-audio splitter: windows shifted to absolute, monotonic times", async () => {
    const engine = english();
    const progress: number[] = [];
    // A 20 s window policy on the ~7 s clip twice over stands in for a long visit (120 s windows).
    const doubled = join(dir, "doubled.wav");
    execFileSync("ffmpeg", [
      "-nostdin",
      "-loglevel",
      "error",
      "-y",
      "-i",
      longSpeech.path,
      "-i",
      longSpeech.path,
      "-i",
      longSpeech.path,
      "-filter_complex",
      "concat=n=3:v=0:a=1",
      "-ar",
      "16000",
      "-ac",
      "1",
      "-c:a",
      "pcm_s16le",
      doubled,
    ]);
    const audio = await normaliseAudio(doubled, join(dir, "doubled-norm.wav"));
    const result = await transcribeLongAudio(engine, audio.path, {
      language: "en",
      window: { windowSec: 8, overlapSec: 2 },
      onProgress: (done) => progress.push(done),
    });
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(1);
    expect(result.engine).toBe("whisper");
    expect(result.segments.length).toBeGreaterThan(0);
    let cursor = 0;
    for (const segment of result.segments) {
      expect(segment.start).toBeGreaterThanOrEqual(cursor - 0.001);
      expect(segment.end).toBeLessThanOrEqual(audio.durationSec + 0.05);
      cursor = segment.start;
    }
  });

  it("cancelling kills the decoding process", async () => {
    const engine = english();
    await engine.status(); // checksum done: the abort below lands during the decode itself
    const controller = new AbortController();
    const started = Date.now();
    const pending = engine.transcribe(longSpeech.path, { language: "en", signal: controller.signal });
    const caught = pending.catch((e: unknown) => e);
    const deadline = Date.now() + 20_000;
    while (workersFor(englishModel) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(workersFor(englishModel)).toBe(1);
    controller.abort();
    const error = (await caught) as SpeechError;
    expect(isSpeechError(error, "cancelled")).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(workersFor(englishModel)).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("runs one decode at a time per engine", async () => {
    const engine = english();
    let most = 0;
    let running = true;
    const poll = (async () => {
      while (running) {
        most = Math.max(most, workersFor(englishModel));
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    const results = await Promise.all([
      engine.transcribe(speech.path, { language: "en" }),
      engine.transcribe(speech.path, { language: "en" }),
    ]);
    running = false;
    await poll;
    expect(results).toHaveLength(2);
    expect(most).toBe(1);
  });
});

describe("model verification", { timeout: DECODE_TIMEOUT_MS }, () => {
  it("refuses a missing file, a file that is not GGML, and a GGUF file, with stable codes", async () => {
    const missing = createWhisperEngine({ modelPath: join(dir, "nope.bin"), allowUnknown: true });
    await expect(missing.transcribe(speech.path, { language: "en" })).rejects.toMatchObject({ code: "model_missing" });
    expect(await missing.status()).toMatchObject({ ok: false, code: "model_missing" });

    const junk = join(dir, "junk.bin");
    writeFileSync(junk, Buffer.alloc(4096, 7));
    await expect(
      createWhisperEngine({ modelPath: junk, allowUnknown: true }).transcribe(speech.path, { language: "en" }),
    ).rejects.toMatchObject({
      code: "model_corrupt",
      status: 503,
    });
    const gguf = join(dir, "model.gguf");
    writeFileSync(gguf, Buffer.concat([Buffer.from("GGUF"), Buffer.alloc(100)]));
    expect(() => readWhisperHeader(gguf)).toThrow(/GGUF/);
  });

  it("refuses a truncated model: the header is right, whisper.cpp's loader is not satisfied", async () => {
    const truncated = join(dir, "truncated.bin");
    writeFileSync(truncated, readFileSync(englishModel).subarray(0, 2_000_000));
    const engine = createWhisperEngine({ modelPath: truncated, allowUnknown: true, threads: 1 });
    await expect(engine.transcribe(speech.path, { language: "en" })).rejects.toMatchObject({ code: "model_corrupt" });
  });

  it("refuses a well-formed model whose checksum is not a published one, unless explicitly allowed", async () => {
    const engine = createWhisperEngine({ modelPath: englishModel });
    await expect(engine.transcribe(speech.path, { language: "en" })).rejects.toMatchObject({ code: "model_unknown" });
    const status = await engine.status();
    expect(status).toMatchObject({ ok: false, code: "model_unknown" });
    await expect(verifyWhisperModel(englishModel, { allowUnknown: true })).resolves.toMatchObject({ known: false });
  });

  it("knows the published files by SHA-1 (whisper.cpp models/README.md)", () => {
    expect(knownWhisperModelBySha1("137C40403D78FD54D454DA0F9BD998F78703390C")).toMatchObject({
      name: "base.en",
      file: "ggml-base.en.bin",
      multilingual: false,
    });
    expect(knownWhisperModelBySha1("55356645c2b361a969dfd0ef2c5a50d530afd8d5")).toMatchObject({
      name: "small",
      multilingual: true,
    });
    expect(new Set(KNOWN_WHISPER_MODELS.map((m) => m.sha1)).size).toBe(KNOWN_WHISPER_MODELS.length);
    expect(KNOWN_WHISPER_MODELS.every((m) => /^[0-9a-f]{40}$/.test(m.sha1))).toBe(true);
  });
});

describe("configuration", { timeout: DECODE_TIMEOUT_MS }, () => {
  it("ASR_ENGINE=auto puts Whisper first when MURMUR_DATA_DIR/models holds a model, pocketsphinx alone otherwise", () => {
    const dataDir = join(dir, "data");
    const env = parseSpeechEnv({ ASR_WHISPER_ALLOW_UNKNOWN: "1" });
    expect(env.ASR_ENGINE).toEqual(["auto"]);
    expect(resolveEngineIds(env, { dataDir }).ids).toEqual(["pocketsphinx"]);
    mkdirSync(join(dataDir, "models"), { recursive: true });
    writeFileSync(join(dataDir, "models", "ggml-custom.bin"), readFileSync(multilingualModel));
    expect(findWhisperModel({ dataDir })).toBe(join(dataDir, "models", "ggml-custom.bin"));
    const registry = createSpeechRegistry(env, { dataDir });
    expect(registry.engines.map((e) => e.id)).toEqual(["whisper", "pocketsphinx"]);
    expect(registry.pick("es")).toMatchObject({ ok: true, engine: { id: "whisper" } });
    expect(registry.pick("en")).toMatchObject({ ok: true, engine: { id: "whisper" } });
  });

  it("with auto, a refused model steps aside for pocketsphinx; named explicitly, it fails loudly", async () => {
    const dataDir = join(dir, "data-bad");
    mkdirSync(join(dataDir, "models"), { recursive: true });
    writeFileSync(join(dataDir, "models", "ggml-base.en.bin"), readFileSync(englishModel)); // right name, wrong checksum
    const auto = createSpeechRegistry(parseSpeechEnv({}), { dataDir });
    const whisper = auto.engines[0] as WhisperEngine;
    expect(await whisper.status()).toMatchObject({ ok: false, code: "model_unknown" });
    expect(auto.pick("en")).toMatchObject({ ok: true, engine: { id: "pocketsphinx" } });

    const explicit = createSpeechRegistry(parseSpeechEnv({ ASR_ENGINE: "whisper" }), { dataDir });
    await (explicit.engines[0] as WhisperEngine).status();
    await expect(explicit.require("en").transcribe(speech.path, { language: "en" })).rejects.toMatchObject({
      code: "model_unknown",
    });
  });

  it("refuses unverified models in production and bad values at parse time", () => {
    expect(() => parseSpeechEnv({ ASR_WHISPER_ALLOW_UNKNOWN: "1", NODE_ENV: "production" })).toThrow(/refused in production/);
    expect(() => parseSpeechEnv({ ASR_ENGINE: "auto,whisper" })).toThrow(/auto cannot be combined/);
    expect(() => parseSpeechEnv({ ASR_WHISPER_THREADS: "0" })).toThrow(/at least 1/);
    expect(parseSpeechEnv({ ASR_ENGINE: "whisper, pocketsphinx" }).ASR_ENGINE).toEqual(["whisper", "pocketsphinx"]);
  });
});

describe("word regrouping", () => {
  it("starts a segment at a pause or a sentence end and clamps times to the audio", () => {
    const segments = groupWords(
      [
        { type: "loaded", multilingual: false },
        { type: "segment", text: " Hello", start: 0.1, end: 0.4 },
        { type: "segment", text: "there.", start: 0.4, end: 0.8 },
        { type: "segment", text: "Cough", start: 0.9, end: 1.2 },
        { type: "segment", text: "today", start: 2.5, end: 40 },
        { type: "segment", text: " ", start: 3, end: 3 },
        { type: "done" },
      ],
      3,
    );
    expect(segments.map((s) => [s.text, s.start, s.end])).toEqual([
      ["Hello there.", 0.1, 0.8],
      ["Cough", 0.9, 1.2],
      ["today", 2.5, 3],
    ]);
    expect(segments[0]?.words?.map((w) => w.word)).toEqual(["Hello", "there."]);
  });
});
