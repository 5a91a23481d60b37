import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { normaliseText } from "#app/services/speech/text-normalise.ts";
import { parseWavHeader, wavHeader } from "#app/services/speech/wav.server.ts";
import { seededRandom } from "#app/utils/seeded-random.ts";

export interface Clip {
  set: string;
  id: string;
  /** Any format normaliseAudio accepts. */
  path: string;
  reference: string;
  /** Raw headerless 16 kHz s16le input that must be wrapped first. */
  raw?: boolean;
}

export const DEBIAN_TESTDATA = "/usr/share/pocketsphinx/test/data";

/**
 * The shared evaluation data, read in place at bench time only (the app never reads it):
 * MURMUR_SHARED_DATA, else <repo>/../shared/data, else /work/shared/data.
 */
export const SHARED_DATA =
  [process.env.MURMUR_SHARED_DATA, resolve(import.meta.dirname, "../../../shared/data"), "/work/shared/data"].find(
    (dir): dir is string => Boolean(dir) && existsSync(dir as string),
  ) ?? resolve(import.meta.dirname, "../../../shared/data");
export const SHARED_SAMPLES = join(SHARED_DATA, "speech-samples");

/** Sphinx transcription lines: "<s> words </s> (id)" or "words (id)". */
function parseTranscription(text: string): Map<string, string> {
  const references = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^(.*)\(([^()]+)\)\s*$/.exec(line.trim());
    if (!match) continue;
    const [, words = "", id = ""] = match;
    references.set(id.trim(), words.replace(/<\/?s>/g, "").trim());
  }
  return references;
}

/** (a) Real read speech shipped by Debian's pocketsphinx-testdata: LibriVox (Austen), the "cards" and goforward commands. */
export function debianTestdataClips(): Clip[] {
  if (!existsSync(DEBIAN_TESTDATA)) return [];
  const clips: Clip[] = [];
  for (const [folder, transcription] of [
    ["librivox", "transcription"],
    ["cards", "cards.transcription"],
  ] as const) {
    const refs = parseTranscription(readFileSync(join(DEBIAN_TESTDATA, folder, transcription), "utf8"));
    for (const [id, reference] of refs) {
      const path = join(DEBIAN_TESTDATA, folder, `${id}.wav`);
      if (existsSync(path)) clips.push({ set: `debian-${folder}`, id, path, reference });
    }
  }
  // goforward.raw's words are the ones its grammar and keyword tests expect (goforward.gram).
  const goforward = join(DEBIAN_TESTDATA, "goforward.raw");
  if (existsSync(goforward))
    clips.push({ set: "debian-cards", id: "goforward", path: goforward, reference: "go forward ten meters", raw: true });
  return clips;
}

/**
 * (a) ../shared/data/speech-samples, read in place (never copied into the repository). Its
 * pocketsphinx-testdata folder repeats the Debian clips above, so only the other clips are used
 * unless the Debian package is absent (`withTestdataCopies`).
 */
export function sharedSampleClips(withTestdataCopies = false): Clip[] {
  const csv = join(SHARED_SAMPLES, "references.csv");
  if (!existsSync(csv)) return [];
  const clips: Clip[] = [];
  for (const row of parseCsv(readFileSync(csv, "utf8")).slice(1)) {
    const [path = "", reference = ""] = row;
    if (!reference.trim() || (!withTestdataCopies && path.startsWith("pocketsphinx-testdata/"))) continue;
    const full = join(SHARED_SAMPLES, path);
    if (existsSync(full)) clips.push({ set: "shared-samples", id: path, path: full, reference });
  }
  return clips;
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else if (c !== "\r") field += c;
  }
  if (field || row.length > 0) rows.push([...row, field]);
  return rows;
}

export function readSentences(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}

/** (b) The held-out clinical sentences, one continuous recording per voice (as a clinician dictates). */
export function synthesiseClinical(sentences: readonly string[], voice: string, directory: string): Clip {
  const path = join(directory, `clinical-${voice.replace(/[^a-z0-9]+/gi, "_")}.wav`);
  execFileSync("espeak-ng", ["-v", voice, "-s", "150", "-w", path, sentences.join("\n")]);
  return { set: `dictation:${voice}`, id: voice, path, reference: sentences.join(" ") };
}

// ---------------------------------------------------------------------------------------------
// (c) Whole conversations: ACI-Bench and MTS-Dialog dialogues the clinical LM corpus does not
// contain, spoken turn by turn with one espeak-ng voice per speaker.

export interface Turn {
  speaker: "doctor" | "patient" | "other";
  /** Normalised sentences (normaliseText), as spoken and as scored. */
  sentences: string[];
}

export interface Dialogue {
  corpus: "aci-bench" | "mts-dialog";
  /** The source file's split: ACI-Bench train/valid, MTS-Dialog train/valid (their test splits are not in shared/data). */
  split: "train" | "valid";
  id: string;
  /** ACI-Bench sub-corpus (aci, virtassist, virtscribe) or MTS-Dialog section header. */
  subset: string;
  turns: Turn[];
}

export interface ConversationSample {
  dialogue: Dialogue;
  /** Turns [from, to) of the dialogue. */
  from: number;
  to: number;
  voices: { doctor: string; patient: string };
}

const CLINICAL_CORPUS_DIR = resolve(import.meta.dirname, "../../app/services/speech/clinical-lm/corpus");

/** The clinical LM's training sentences, read and normalised as scripts/build-clinical-lm.ts reads them. */
export function clinicalCorpusSentences(): string[] {
  return readdirSync(CLINICAL_CORPUS_DIR)
    .filter((f) => f.endsWith(".txt"))
    .sort()
    .flatMap((f) => readSentences(join(CLINICAL_CORPUS_DIR, f)).map(normaliseText))
    .filter(Boolean);
}

/**
 * One turn's text → normalised sentences. ACI-Bench text is tokenised ("do n't", "it 's") and both
 * corpora write the back-channel "mm-hmm", which normaliseText would read as "millimeters hmm" and
 * espeak-ng spells out letter by letter as "mhm": it becomes "uh huh", which cmudict knows and
 * espeak-ng says as words.
 */
export function turnSentences(text: string): string[] {
  const detokenised = text.replace(/\s+(n't|'s|'re|'ve|'ll|'d|'m)\b/gi, "$1").replace(/\b(mm-?hmm|mhm|hmm-?mm)\b/gi, "uh huh");
  return detokenised
    .split(/(?<=[.?!])\s+|\s+\.\.\.\s+/)
    .map(normaliseText)
    .filter(Boolean);
}

function speakerOf(tag: string): Turn["speaker"] {
  const t = tag.toLowerCase();
  return t === "doctor" ? "doctor" : t === "patient" ? "patient" : "other";
}

/**
 * What a dialogue may be used for, fixed so the conversation LM and the bench never share one
 * (docs/speech.md "Conversation language model"): the corpora's validation splits are the bench's
 * evaluation set; one train dialogue in ten (FNV-1a of "corpus/id") is held out to tune the
 * mixture and decoder weights; the rest (and MTS-Dialog's back-translations of them) train the LM.
 */
export type DialogueRole = "train" | "tune" | "eval";

export function dialogueRole(corpus: Dialogue["corpus"], split: Dialogue["split"], id: string): DialogueRole {
  if (split === "valid") return "eval";
  let hash = 0x811c9dc5;
  for (const char of `${corpus}/${id}`) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return hash % 10 === 0 ? "tune" : "train";
}

/** Every train and valid dialogue of both corpora (empty when the shared data is absent). */
export function allDialogues(): Dialogue[] {
  return [...aciDialogues(), ...mtsDialogues()];
}

/**
 * MTS-Dialog's back-translated training dialogues (EN→FR→EN, EN→ES→EN): each file repeats the
 * original training rows (numeric ID) and adds paraphrases ("TR=…" IDs) whose source row is not
 * recorded, so the build drops any that shares a sentence with a held-out dialogue.
 */
export function mtsAugmentedDialogues(): Dialogue[] {
  const dir = join(SHARED_DATA, "mts-dialog", "augmented");
  if (!existsSync(dir)) return [];
  const dialogues: Dialogue[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".csv"))
    .sort()) {
    const [header = [], ...rows] = parseCsv(readFileSync(join(dir, file), "utf8"));
    const col = (name: string) => header.indexOf(name);
    for (const row of rows) {
      const id = row[col("ID")] ?? "";
      // Back-translations often put both speakers on one line.
      const text = (row[col("dialogue")] ?? "").replace(/\s+(Doctor|Patient)\s*:/g, "\n$1:");
      const turns: Turn[] = [];
      for (const line of text.split(/\r?\n/)) {
        const match = /^\s*([A-Za-z_0-9]+)\s*:\s*(.*)$/.exec(line);
        if (!match) continue;
        const sentences = turnSentences(match[2] ?? "");
        if (sentences.length > 0) turns.push({ speaker: speakerOf(match[1] ?? ""), sentences });
      }
      if (id && turns.length > 0)
        dialogues.push({
          corpus: "mts-dialog",
          split: "train",
          id: `${file}:${id}`,
          subset: row[col("section_header")] ?? "",
          turns,
        });
    }
  }
  return dialogues;
}

function aciDialogues(): Dialogue[] {
  const dir = join(SHARED_DATA, "aci-bench", "challenge_data");
  const dialogues: Dialogue[] = [];
  for (const split of ["train", "valid"] as const) {
    const path = join(dir, `${split}.csv`);
    if (!existsSync(path)) continue;
    const [header = [], ...rows] = parseCsv(readFileSync(path, "utf8"));
    const col = (name: string) => header.indexOf(name);
    for (const row of rows) {
      const turns: Turn[] = [];
      for (const line of (row[col("dialogue")] ?? "").split(/\r?\n/)) {
        const match = /^\s*\[([a-z_]+)\]\s*(.*)$/i.exec(line);
        if (!match) continue;
        const sentences = turnSentences(match[2] ?? "");
        if (sentences.length > 0) turns.push({ speaker: speakerOf(match[1] ?? ""), sentences });
      }
      const id = row[col("encounter_id")] ?? "";
      if (id && turns.length > 0) dialogues.push({ corpus: "aci-bench", split, id, subset: row[col("dataset")] ?? "", turns });
    }
  }
  return dialogues;
}

function mtsDialogues(): Dialogue[] {
  const dir = join(SHARED_DATA, "mts-dialog");
  const dialogues: Dialogue[] = [];
  for (const [split, file] of [
    ["train", "MTS-Dialog-TrainingSet.csv"],
    ["valid", "MTS-Dialog-ValidationSet.csv"],
  ] as const) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const [header = [], ...rows] = parseCsv(readFileSync(path, "utf8"));
    const col = (name: string) => header.indexOf(name);
    for (const row of rows) {
      const turns: Turn[] = [];
      for (const line of (row[col("dialogue")] ?? "").split(/\r?\n/)) {
        const match = /^\s*([A-Za-z_0-9]+)\s*:\s*(.*)$/.exec(line);
        if (!match) continue;
        const sentences = turnSentences(match[2] ?? "");
        if (sentences.length > 0) turns.push({ speaker: speakerOf(match[1] ?? ""), sentences });
      }
      const id = row[col("ID")] ?? "";
      if (id && turns.length > 0)
        dialogues.push({ corpus: "mts-dialog", split, id, subset: row[col("section_header")] ?? "", turns });
    }
  }
  return dialogues;
}

const turnWords = (turn: Turn) => turn.sentences.reduce((n, s) => n + s.split(" ").length, 0);

/**
 * A dialogue the clinical LM may have seen: one of the corpus's sentences of four words or more
 * appears in it word for word (its everyday phrases — "do you have any questions for me" — do, in
 * about 50 of the 1,388 dialogues). Shorter corpus sentences ("thank you") are in every conversation
 * and say nothing about leakage.
 */
export function overlapsCorpus(dialogue: Dialogue, corpusSentences: readonly string[]): string | null {
  const text = ` ${dialogue.turns.flatMap((t) => t.sentences).join(" ")} `;
  return corpusSentences.find((s) => s.split(" ").length >= 4 && text.includes(` ${s} `)) ?? null;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export interface ConversationOptions {
  /** Dialogues in all: half from ACI-Bench (its three sub-corpora in turn), half from MTS-Dialog. */
  count: number;
  /** Contiguous turns are taken until the excerpt reaches this many words (MTS-Dialog's are often shorter whole). */
  words: number;
  seed: number;
  /** [voice A, voice B]: doctor A / patient B in even-numbered samples, swapped in odd ones. */
  voices: readonly [string, string];
  /** Which dialogues to draw from (dialogueRole): the bench's "eval" unless tuning. */
  role?: DialogueRole;
}

export interface ConversationSelection {
  samples: ConversationSample[];
  /** Dialogues left out because the clinical LM corpus contains one of their sentences. */
  excluded: { corpus: string; split: string; id: string; sentence: string }[];
  available: { aci: number; mts: number };
}

/**
 * The fixed, seeded conversation sample (bench/asr/README.md): dialogues sharing a sentence with the
 * clinical LM corpus are removed; the rest are shuffled with `seed`; ACI-Bench contributes one
 * dialogue per sub-corpus in turn (aci, virtassist, virtscribe), MTS-Dialog the first dialogues of at
 * least 60 words and 4 turns with only a doctor and a patient; each is cut to a contiguous run of turns of about
 * `words` words starting at a seeded turn.
 */
export function selectConversations(options: ConversationOptions): ConversationSelection {
  const corpus = clinicalCorpusSentences();
  const excluded: ConversationSelection["excluded"] = [];
  const keep = (dialogues: Dialogue[]) =>
    dialogues.filter((d) => {
      const sentence = overlapsCorpus(d, corpus);
      if (sentence) excluded.push({ corpus: d.corpus, split: d.split, id: d.id, sentence });
      return !sentence;
    });
  // Only the evaluation split: the conversation LM trained on the rest (dialogueRole).
  const evaluation = (d: Dialogue) => dialogueRole(d.corpus, d.split, d.id) === (options.role ?? "eval");
  const aci = keep(aciDialogues().filter(evaluation));
  const mts = keep(mtsDialogues().filter(evaluation));
  const random = seededRandom(options.seed);
  const aciCount = Math.ceil(options.count / 2);
  const mtsCount = options.count - aciCount;

  const aciPicked: Dialogue[] = [];
  const bySubset = new Map<string, Dialogue[]>();
  for (const d of shuffled(aci, random)) bySubset.set(d.subset, [...(bySubset.get(d.subset) ?? []), d]);
  const subsets = [...bySubset.keys()].sort();
  for (let i = 0; aciPicked.length < aciCount && [...bySubset.values()].some((l) => l.length > 0); i++) {
    const next = bySubset.get(subsets[i % subsets.length] as string)?.shift();
    if (next) aciPicked.push(next);
  }
  const mtsPicked = shuffled(
    mts.filter(
      (d) =>
        d.turns.length >= 4 && d.turns.every((t) => t.speaker !== "other") && d.turns.reduce((n, t) => n + turnWords(t), 0) >= 60,
    ),
    random,
  ).slice(0, mtsCount);

  const samples = [...aciPicked, ...mtsPicked].map((dialogue, index): ConversationSample => {
    const { from, to } = excerpt(dialogue, options.words, random);
    const [a, b] = options.voices;
    return { dialogue, from, to, voices: index % 2 === 0 ? { doctor: a, patient: b } : { doctor: b, patient: a } };
  });
  return { samples, excluded, available: { aci: aci.length, mts: mts.length } };
}

/** Contiguous turns of about `words` words from a seeded starting turn (the whole dialogue if it is shorter). */
function excerpt(dialogue: Dialogue, words: number, random: () => number): { from: number; to: number } {
  const counts = dialogue.turns.map(turnWords);
  const total = counts.reduce((a, b) => a + b, 0);
  if (total <= words) return { from: 0, to: counts.length };
  // Starts from which the rest of the dialogue still holds `words` words.
  let tail = 0;
  let lastStart = counts.length - 1;
  for (let i = counts.length - 1; i >= 0; i--) {
    tail += counts[i] ?? 0;
    if (tail >= words) {
      lastStart = i;
      break;
    }
  }
  const from = Math.floor(random() * (lastStart + 1));
  let to = from;
  for (let sum = 0; to < counts.length && sum < words; to++) sum += counts[to] ?? 0;
  return { from, to };
}

export function sampleLabel(sample: ConversationSample): string {
  const { dialogue, from, to, voices } = sample;
  return `${dialogue.corpus} ${dialogue.split} ${dialogue.id} (${dialogue.subset}) turns ${from + 1}–${to} of ${dialogue.turns.length}, doctor ${voices.doctor}, patient ${voices.patient}`;
}

/** Speaks the sample turn by turn (one voice per speaker, 0.4 s between turns) into one WAV. */
export function synthesiseConversation(sample: ConversationSample, directory: string, index: number): Clip {
  const pcm: Buffer[] = [];
  let sampleRate = 0;
  const turns = sample.dialogue.turns.slice(sample.from, sample.to);
  for (const turn of turns) {
    const voice = turn.speaker === "doctor" ? sample.voices.doctor : sample.voices.patient;
    const wav = execFileSync("espeak-ng", ["-v", voice, "-s", "150", "--stdout", `${turn.sentences.join(". ")}.`], {
      maxBuffer: 256 * 1024 * 1024,
    });
    const info = parseWavHeader(wav, wav.length);
    if (info.channels !== 1 || info.bitsPerSample !== 16)
      throw new Error(`espeak-ng wrote ${info.channels} ch/${info.bitsPerSample} bit`);
    if (sampleRate && info.sampleRate !== sampleRate) throw new Error("espeak-ng voices disagree on the sample rate");
    sampleRate = info.sampleRate;
    pcm.push(wav.subarray(info.dataOffset, info.dataOffset + info.dataBytes));
    pcm.push(Buffer.alloc(Math.round(sampleRate * 0.4) * 2));
  }
  const data = Buffer.concat(pcm);
  const path = join(directory, `conversation-${index}.wav`);
  writeFileSync(path, Buffer.concat([wavHeader(data.length, sampleRate), data]));
  return {
    set: `conversation:${sample.dialogue.corpus}`,
    id: `${sample.dialogue.corpus}/${sample.dialogue.split}/${sample.dialogue.id}`,
    path,
    reference: turns.flatMap((t) => t.sentences).join(" "),
  };
}
