/**
 * Per-organisation vocabulary bench (issue 15, ADR 0032): espeak-ng speaks sentences holding a
 * practice's own words (made-up drugs, rare real drugs, clinicians' surnames); the real pipeline
 * (16 kHz WAV → pocketsphinx, windowed) decodes them with the default model and with the practice's
 * adapted model. The vocabulary comes from bench/asr/org-vocab/practice.txt only; the sentences
 * scored (eval-sentences.txt) were not used to build or tune anything.
 *
 *   node bench/asr/org-vocab.ts [--voices 2]
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { transcribeLongAudio } from "#app/services/speech/long-audio.server.ts";
import { defaultBaseVocabulary } from "#app/services/speech/org-vocab/base-vocabulary.server.ts";
import { pronounce } from "#app/services/speech/org-vocab/g2p.server.ts";
import { createOrgModelCache, type OrgVocabulary, vocabularyVersion } from "#app/services/speech/org-vocab/model-cache.server.ts";
import { selectTerms, type VocabularyTerm } from "#app/services/speech/org-vocab/terms.ts";
import { createPocketsphinxEngine, resolveLanguageModel } from "#app/services/speech/pocketsphinx.server.ts";
import { words } from "#app/services/speech/text-normalise.ts";
import { wordErrors } from "#app/services/speech/wer.ts";
import { RECOGNISABLE_VOICES, speak } from "#tests/speech/synth.ts";

function lines(file: string): string[] {
  return readFileSync(new URL(`./org-vocab/${file}`, import.meta.url), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}

/** The practice's vocabulary exactly as the refresh job would build it from these texts. */
export async function practiceVocabulary(orgId: string): Promise<OrgVocabulary> {
  const practice = lines("practice.txt");
  const of = (prefix: string) => practice.filter((l) => l.startsWith(`${prefix}:`)).map((l) => l.slice(prefix.length + 1).trim());
  const base = await defaultBaseVocabulary();
  const selected = selectTerms(
    { custom: [], clinicianNames: of("name"), templateTexts: of("template"), noteTexts: of("note") },
    base,
  );
  const phones = await pronounce(selected.filter((t) => !base.has(t.word)).map((t) => t.word));
  const terms: VocabularyTerm[] = selected.flatMap((t) => {
    if (base.has(t.word)) return [t];
    const p = phones.get(t.word);
    return p ? [{ ...t, phones: p }] : [];
  });
  return { orgId, version: vocabularyVersion(terms), terms };
}

/** Occurrences of the practice's words in the reference found in the hypothesis (bag of words), and false hits. */
function termScore(reference: string, hypothesis: string, terms: ReadonlySet<string>) {
  const count = (list: string[]) => {
    const m = new Map<string, number>();
    for (const w of list) if (terms.has(w)) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const ref = count(words(reference));
  const hyp = count(words(hypothesis));
  let found = 0;
  let total = 0;
  let extra = 0;
  for (const [w, n] of ref) {
    total += n;
    found += Math.min(n, hyp.get(w) ?? 0);
  }
  for (const [w, n] of hyp) extra += Math.max(0, n - (ref.get(w) ?? 0));
  return { found, total, extra };
}

async function main() {
  const voiceCount = Number(process.argv[process.argv.indexOf("--voices") + 1] || 2);
  const voices = RECOGNISABLE_VOICES.slice(0, Math.max(1, Math.min(voiceCount, RECOGNISABLE_VOICES.length)));
  const sentences = lines("eval-sentences.txt");
  const dir = await mkdtemp(join(tmpdir(), "murmur-org-vocab-bench-"));
  try {
    const vocabulary = await practiceVocabulary("00000000-0000-4000-8000-000000000001");
    const orgModels = createOrgModelCache(join(dir, "models"));
    const engine = createPocketsphinxEngine({ orgModels });
    // Built once up front (as the first transcription after a refresh would), so RTFs are decoding only.
    const started = Date.now();
    await orgModels.modelFor(resolveLanguageModel("conversation"), vocabulary);
    const buildSec = (Date.now() - started) / 1000;
    // Only the words the eval sentences were written to test (the vocabulary holds more).
    const scored = new Set(
      [
        "okafor",
        "quistgaard",
        "lindqvist",
        "abernathy",
        "tromadexil",
        "velquarin",
        "apixaban",
        "zenvaxor",
        "oxabrenate",
        "semaglutide",
        "empagliflozin",
        "lumiquisan",
      ].filter((w) => vocabulary.terms.some((t) => t.word === w)),
    );
    // Control: held-out dictation without the practice's words (bench/asr/clinical-sentences.txt, the
    // first 12): the vocabulary must not make ordinary speech worse.
    const control = readFileSync(new URL("./clinical-sentences.txt", import.meta.url), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"))
      .slice(0, 12);
    const sets = [
      { name: "practice words", lines: sentences },
      { name: "control (no practice words)", lines: control },
    ];
    const rows: string[] = [];
    for (const set of sets) {
      for (const voice of voices) {
        const reference = set.lines.join(" ");
        const wav = await normaliseAudio(
          speak(set.lines.join("\n"), join(dir, `${voice}.src.wav`), voice),
          join(dir, `${voice}.wav`),
        );
        for (const withVocabulary of [false, true]) {
          const t0 = Date.now();
          const result = await transcribeLongAudio(engine, wav.path, {
            language: "en",
            carry: {},
            vocabulary: withVocabulary ? vocabulary : undefined,
          });
          const sec = (Date.now() - t0) / 1000;
          const e = wordErrors(reference, result.text);
          const w = (e.substitutions + e.deletions + e.insertions) / e.referenceWords;
          const s = termScore(reference, result.text, scored);
          rows.push(
            `| ${set.name} | ${voice} | ${withVocabulary ? "with org vocabulary" : "default (conversation)"} | ${w.toFixed(3)} | ${s.found}/${s.total} ${s.total ? ` (${((100 * s.found) / s.total).toFixed(0)}%)` : ""} | ${s.extra} | ${(sec / wav.durationSec).toFixed(2)} |`,
          );
          console.error(`${voice} ${withVocabulary ? "org" : "base"}: ${result.text}`);
        }
      }
    }
    console.log(
      `Vocabulary: ${vocabulary.terms.length} terms (${vocabulary.terms.filter((t) => t.phones).length} with espeak-ng pronunciations); adapted model built in ${buildSec.toFixed(1)} s`,
    );
    console.log(
      `Eval: ${sentences.length} sentences, ${words(sentences.join(" ")).length} words, ${scored.size} practice words scored; control: ${control.length} sentences\n`,
    );
    console.log("| set | voice | model | WER | practice words recognised | practice words inserted wrongly | RTF |");
    console.log("|---|---|---|---|---|---|---|");
    for (const row of rows) console.log(row);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
