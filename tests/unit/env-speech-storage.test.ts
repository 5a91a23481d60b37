import { describe, expect, it } from "vitest";
import { createSpeechRegistry, parseSpeechEnv } from "#app/services/speech/config.server.ts";
import { storageConfig } from "#app/services/storage/config.server.ts";
import { EnvError, parseEnv } from "#app/utils/env.server.ts";

// The ASR_* and S3_* settings are part of the boot-time env: a bad value stops the server with a
// message naming the variable, instead of failing at the first transcription or upload.
describe("speech and storage settings in the validated environment", () => {
  it("defaults to pocketsphinx (auto: no Whisper model on disk) and local disk", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      ASR_ENGINE: ["auto"],
      ASR_OPENAI_MODEL: "whisper-1",
      ASR_OPENAI_LANGUAGES: ["en", "fr", "es"],
      ASR_OPENAI_TIMEOUT_MS: 300_000,
      ASR_POCKETSPHINX_MODEL: "conversation",
    });
    expect(createSpeechRegistry(env, { dataDir: "/nonexistent-murmur-data" }).engines.map((e) => e.id)).toEqual(["pocketsphinx"]);
    expect(storageConfig(env).kind).toBe("local");
    // Empty values, as a copied .env.example may leave them, mean the defaults.
    const blank = Object.fromEntries(
      [
        "ASR_ENGINE",
        "ASR_OPENAI_BASE_URL",
        "ASR_OPENAI_MODEL",
        "ASR_OPENAI_LANGUAGES",
        "ASR_OPENAI_TIMEOUT_MS",
        "ASR_POCKETSPHINX_MODEL",
      ]
        .concat([
          "S3_BUCKET",
          "S3_REGION",
          "S3_ENDPOINT",
          "S3_ACCESS_KEY_ID",
          "S3_SECRET_ACCESS_KEY",
          "S3_FORCE_PATH_STYLE",
          "S3_PREFIX",
        ])
        .map((k) => [k, ""]),
    );
    expect(parseEnv(blank)).toMatchObject({ ASR_ENGINE: ["auto"], ASR_OPENAI_TIMEOUT_MS: 300_000 });
    expect(storageConfig(parseEnv(blank)).kind).toBe("local");
  });

  it("stops at boot on a bad ASR_* value, naming it", () => {
    const bad = (source: Record<string, string>) => () => parseEnv(source);
    expect(bad({ ASR_ENGINE: "whisper.cpp" })).toThrow(EnvError);
    expect(bad({ ASR_ENGINE: "whisper.cpp" })).toThrow(
      /ASR_ENGINE.*must be auto or list pocketsphinx, openai-compatible and\/or whisper/,
    );
    expect(bad({ ASR_WHISPER_ALLOW_UNKNOWN: "1" })).toThrow(
      /ASR_WHISPER_ALLOW_UNKNOWN: unverified Whisper models are refused in production/,
    );
    expect(bad({ ASR_ENGINE: " , " })).toThrow(/ASR_ENGINE: must name at least one engine/);
    expect(bad({ ASR_ENGINE: "openai-compatible" })).toThrow(
      /ASR_OPENAI_BASE_URL: ASR_ENGINE names openai-compatible but ASR_OPENAI_BASE_URL is not set/,
    );
    expect(bad({ ASR_OPENAI_BASE_URL: "ftp://asr.example" })).toThrow(/ASR_OPENAI_BASE_URL: must be an http\(s\) URL/);
    expect(bad({ ASR_OPENAI_TIMEOUT_MS: "500" })).toThrow(/ASR_OPENAI_TIMEOUT_MS: must be at least 1000/);
    expect(bad({ ASR_OPENAI_LANGUAGES: "en,french" })).toThrow(/ASR_OPENAI_LANGUAGES.*language codes/);
    expect(bad({ ASR_POCKETSPHINX_MODEL: "/srv/lm" })).toThrow(/ASR_POCKETSPHINX_MODEL: must be stock, conversation, clinical/);
  });

  it("stops at boot on a bad S3_* value, naming it", () => {
    expect(() => parseEnv({ S3_BUCKET: "My_Bucket" })).toThrow(/S3_BUCKET: must be a valid bucket name/);
    expect(() => parseEnv({ S3_BUCKET: "audio", S3_FORCE_PATH_STYLE: "1" })).toThrow(/S3_FORCE_PATH_STYLE/);
    expect(() => parseEnv({ S3_BUCKET: "audio", S3_SECRET_ACCESS_KEY: "x" })).toThrow(/S3_ACCESS_KEY_ID: .* go together/);
  });

  it("reads the same values the engines are built from, and parseSpeechEnv agrees", () => {
    const source = {
      ASR_ENGINE: "openai-compatible, pocketsphinx",
      ASR_OPENAI_BASE_URL: "https://asr.example/v1",
      ASR_OPENAI_LANGUAGES: "EN, fr",
      S3_BUCKET: "murmur-audio",
      S3_PREFIX: "/prod/",
    };
    const env = parseEnv(source);
    expect(env.ASR_ENGINE).toEqual(["openai-compatible", "pocketsphinx"]);
    expect(env.ASR_OPENAI_LANGUAGES).toEqual(["en", "fr"]);
    expect(parseSpeechEnv(source)).toEqual({
      ASR_ENGINE: env.ASR_ENGINE,
      ASR_OPENAI_BASE_URL: env.ASR_OPENAI_BASE_URL,
      ASR_OPENAI_MODEL: env.ASR_OPENAI_MODEL,
      ASR_OPENAI_LANGUAGES: env.ASR_OPENAI_LANGUAGES,
      ASR_OPENAI_TIMEOUT_MS: env.ASR_OPENAI_TIMEOUT_MS,
      ASR_POCKETSPHINX_MODEL: env.ASR_POCKETSPHINX_MODEL,
      ASR_WHISPER_MODEL: env.ASR_WHISPER_MODEL,
      ASR_WHISPER_ALLOW_UNKNOWN: env.ASR_WHISPER_ALLOW_UNKNOWN,
      ASR_WHISPER_THREADS: env.ASR_WHISPER_THREADS,
    });
    expect(createSpeechRegistry(env).engines.map((e) => e.id)).toEqual(["openai-compatible", "pocketsphinx"]);
    expect(storageConfig(env)).toMatchObject({ kind: "s3", bucket: "murmur-audio", prefix: "prod" });
  });
});
