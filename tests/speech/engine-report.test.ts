import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngineRegistry } from "#app/services/speech/engine.ts";
import { type EngineReport, reportEngines } from "#app/services/speech/engine-report.server.ts";
import { createWhisperEngine } from "#app/services/speech/whisper.server.ts";
import { makeMiniWhisperModel } from "#app/services/speech/whisper-mini-model.ts";
import { makeTempDir } from "#tests/speech/synth.ts";

// Issue 15 §3: the settings and diagnostics pages read this report. Real engines: whisper.cpp on
// the miniature model (nonsense text, so a WER near 1 is the right answer) over the real bundled
// sample visit, and a whisper engine whose file is junk.
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterAll(() => cleanup());

describe("speech engine report", { timeout: 180_000 }, () => {
  it("names each engine's model or refusal at once, and measures the sample WER in the background", async () => {
    const model = join(dir, "ggml-mini.bin");
    writeFileSync(model, makeMiniWhisperModel({ seed: 5 }));
    const junk = join(dir, "ggml-junk.bin");
    writeFileSync(junk, Buffer.alloc(1000, 1));
    const registry = createEngineRegistry([
      createWhisperEngine({ modelPath: model, allowUnknown: true, threads: 1 }),
      createWhisperEngine({ modelPath: junk, allowUnknown: true }),
    ]);

    // Without measureSample (a visitor who may not cause a decode) nothing starts.
    const quiet = await reportEngines(registry, { measureSample: false });
    expect(quiet[0]).toMatchObject({ id: "whisper", languages: ["en"], refusal: null, sampleWer: null });
    expect(quiet[0]?.model).toMatch(/^unverified:ggml-mini\.bin@[0-9a-f]{8}$/);
    expect(quiet[1]).toMatchObject({ model: null, refusal: { code: "model_corrupt" }, sampleWer: null });

    const started = Date.now();
    const first = await reportEngines(registry, { measureSample: true });
    expect(Date.now() - started).toBeLessThan(2_000); // the page never waits for the decode
    expect(first[0]?.sampleWer).toEqual({ state: "measuring" });
    expect(first[1]?.sampleWer).toBeNull(); // a refused model is not measured

    let report: EngineReport[] = first;
    const deadline = Date.now() + 150_000;
    while (report[0]?.sampleWer?.state === "measuring" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      report = await reportEngines(registry, { measureSample: true });
    }
    const measured = report[0]?.sampleWer;
    expect(measured?.state).toBe("done");
    if (measured?.state !== "done") return;
    expect(measured.model).toBe(quiet[0]?.model);
    // Random weights: nearly every word of the sample is wrong.
    expect(measured.wer).toBeGreaterThan(0.8);
  });
});
