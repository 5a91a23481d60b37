import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

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
export const SHARED_SAMPLES = resolve(import.meta.dirname, "../../../shared/data/speech-samples");

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
 * pocketsphinx-testdata folder repeats the Debian clips above, so only the other clips are used.
 */
export function sharedSampleClips(): Clip[] {
  const csv = join(SHARED_SAMPLES, "references.csv");
  if (!existsSync(csv)) return [];
  const clips: Clip[] = [];
  for (const row of parseCsv(readFileSync(csv, "utf8")).slice(1)) {
    const [path = "", reference = ""] = row;
    if (!reference.trim() || path.startsWith("pocketsphinx-testdata/")) continue;
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
  return { set: `clinical:${voice}`, id: voice, path, reference: sentences.join(" ") };
}
