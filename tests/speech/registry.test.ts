import { describe, expect, it } from "vitest";
import { createSpeechRegistry, parseSpeechEnv } from "#app/services/speech/config.server.ts";
import { isSpeechError } from "#app/services/speech/errors.ts";

describe("engine registry", () => {
  const pocketsphinxOnly = createSpeechRegistry(parseSpeechEnv({}));

  it("uses pocketsphinx for English by default, whatever the region", () => {
    for (const language of ["en", "en-US", "EN_gb"]) {
      const selection = pocketsphinxOnly.pick(language);
      expect(selection.ok && selection.engine.id).toBe("pocketsphinx");
    }
    expect(pocketsphinxOnly.languages()).toEqual(["en"]);
  });

  it.each(["fr", "es", "fr-CA"])("says no_engine_for_language for %s when only pocketsphinx is configured", async (language) => {
    const selection = pocketsphinxOnly.pick(language);
    expect(selection).toEqual({ ok: false, code: "no_engine_for_language", language: language.slice(0, 2), available: ["en"] });
    let thrown: unknown;
    try {
      pocketsphinxOnly.require(language);
    } catch (error) {
      thrown = error;
    }
    expect(isSpeechError(thrown, "no_engine_for_language")).toBe(true);
    // Even called directly, the engine refuses rather than decoding French with an English model.
    const engine = pocketsphinxOnly.engines[0];
    await expect(engine?.transcribe("/nonexistent.wav", { language })).rejects.toMatchObject({ code: "no_engine_for_language" });
  });

  it("adds the OpenAI-compatible engine for its languages, in the configured order", () => {
    const registry = createSpeechRegistry(
      parseSpeechEnv({
        ASR_ENGINE: "pocketsphinx,openai-compatible",
        ASR_OPENAI_BASE_URL: "http://127.0.0.1:4601",
        ASR_OPENAI_MODEL: "whisper-1",
      }),
    );
    expect(registry.languages()).toEqual(["en", "es", "fr"]);
    const en = registry.pick("en");
    const fr = registry.pick("fr");
    expect(en.ok && en.engine.id).toBe("pocketsphinx");
    expect(fr.ok && fr.engine.id).toBe("openai-compatible");
    const hostedFirst = createSpeechRegistry(
      parseSpeechEnv({ ASR_ENGINE: "openai-compatible,pocketsphinx", ASR_OPENAI_BASE_URL: "http://127.0.0.1:4601" }),
    );
    const hostedEn = hostedFirst.pick("en");
    expect(hostedEn.ok && hostedEn.engine.id).toBe("openai-compatible");
  });

  it("refuses a configuration that names the hosted engine without its address", () => {
    expect(() => parseSpeechEnv({ ASR_ENGINE: "openai-compatible" })).toThrow(/ASR_OPENAI_BASE_URL/);
    expect(() => parseSpeechEnv({ ASR_ENGINE: "whisper.cpp" })).toThrow();
  });
});
