import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { createEngineRegistry } from "#app/services/speech/engine.ts";
import { createOrgModelCache, type OrgVocabulary, vocabularyVersion } from "#app/services/speech/org-vocab/model-cache.server.ts";
import type { VocabularyTerm } from "#app/services/speech/org-vocab/terms.ts";
import { createPocketsphinxEngine, resolveLanguageModel } from "#app/services/speech/pocketsphinx.server.ts";
import { createTranscribePort } from "#app/services/speech/transcribe-file.server.ts";
import { makeTempDir, speak } from "#tests/speech/synth.ts";

// ADR 0032 through the real engine: espeak-ng speaks a sentence with a made-up drug; pocketsphinx
// decodes it with organisation A's adapted model (which knows the drug), B's and the default one.
// One organisation's words never appear in another's dictionary, LM or transcript.

const ORG_A = "0a0a0a0a-0000-4000-8000-00000000000a";
const ORG_B = "0b0b0b0b-0000-4000-8000-00000000000b";

function vocabulary(orgId: string, terms: VocabularyTerm[]): OrgVocabulary {
  return { orgId, version: vocabularyVersion(terms), terms };
}

const A = vocabulary(ORG_A, [
  { word: "zenvaxor", source: "custom", phones: ["Z", "EH", "N", "V", "AE", "K", "S", "ER"], before: ["start"] },
  { word: "okafor", source: "clinician", phones: ["AA", "K", "AE", "F", "ER"], before: ["doctor"] },
]);
const B = vocabulary(ORG_B, [
  { word: "quistgaard", source: "clinician", phones: ["K", "W", "IH", "S", "T", "G", "AA", "R", "D"], before: ["doctor"] },
]);

let dir: string;
let cleanup: () => Promise<void>;
let wav: string;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  // A lead-in phrase: the first words of a file are decoded before the cepstral mean settles.
  const text = "Good morning, thank you for coming in today.\nThe doctor wants you to start zenvaxor twice a day.";
  wav = (await normaliseAudio(speak(text, join(dir, "src.wav")), join(dir, "clip.wav"))).path;
}, 60_000);
afterAll(() => cleanup());

describe("per-organisation pocketsphinx models", () => {
  it("builds each organisation's model once, in its own folder, holding only its own words", async () => {
    const cache = createOrgModelCache(join(dir, "models"));
    const base = resolveLanguageModel("conversation");
    const [a, b] = await Promise.all([cache.modelFor(base, A), cache.modelFor(base, B)]);
    expect(a.lm.startsWith(join(dir, "models", ORG_A))).toBe(true);
    expect(b.lm.startsWith(join(dir, "models", ORG_B))).toBe(true);
    expect(a.name).toBe(`en-us-conversation+org:${A.version}`);
    const dictA = await readFile(a.dict, "utf8");
    const dictB = await readFile(b.dict, "utf8");
    expect(dictA).toMatch(/^zenvaxor Z EH N V AE K S ER$/m);
    expect(dictA).not.toMatch(/^quistgaard /m);
    expect(dictB).toMatch(/^quistgaard /m);
    expect(dictB).not.toMatch(/^(zenvaxor|okafor) /m);
    const lmB = gunzipSync(await readFile(b.lm)).toString("utf8");
    expect(lmB).not.toMatch(/\t(zenvaxor|okafor)\t/);
    expect(lmB).toMatch(/\tdoctor quistgaard\t/);
    // The second call reuses the files on disk (same key), without rebuilding them.
    const before = (await stat(a.lm)).mtimeMs;
    expect(await cache.modelFor(base, A)).toEqual(a);
    expect((await stat(a.lm)).mtimeMs).toBe(before);
    // A new vocabulary version replaces the organisation's older folder.
    const a2 = await cache.modelFor(base, vocabulary(ORG_A, [...A.terms, { word: "apixaban", source: "note" }]));
    expect(a2.lm).not.toBe(a.lm);
    await expect(stat(a.lm)).rejects.toThrow();
    await expect(cache.modelFor(base, { ...A, orgId: "../../etc" })).rejects.toThrow(/UUID/);
  }, 120_000);

  it("decodes the organisation's own drug with its model, and never with another organisation's", async () => {
    const engine = createPocketsphinxEngine({ orgModels: createOrgModelCache(join(dir, "models")) });
    const withA = await engine.transcribe(wav, { language: "en", vocabulary: A });
    const withB = await engine.transcribe(wav, { language: "en", vocabulary: B });
    const plain = await engine.transcribe(wav, { language: "en" });
    expect(withA.text).toContain("zenvaxor");
    expect(withA.model).toBe(`en-us-conversation+org:${A.version}`);
    expect(withB.text).not.toContain("zenvaxor");
    expect(plain.text).not.toContain("zenvaxor");
    expect(plain.model).toBe("en-us-conversation");
    for (const result of [withA, withB, plain]) expect(result.text).toContain("twice a day");
  }, 180_000);

  it("the transcription port looks the vocabulary up by the visit's organisation", async () => {
    const engine = createPocketsphinxEngine({ orgModels: createOrgModelCache(join(dir, "models")) });
    const asked: string[] = [];
    const port = createTranscribePort(createEngineRegistry([engine]), {
      vocabularyFor: async (orgId) => {
        asked.push(orgId);
        return orgId === ORG_A ? A : null;
      },
    });
    const result = await port(wav, "en", { orgId: ORG_A });
    expect(asked).toEqual([ORG_A]);
    expect(result.text).toContain("zenvaxor");
    expect(result.model).toBe(`en-us-conversation+org:${A.version}`);
  }, 120_000);
});
