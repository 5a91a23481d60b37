import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

// /test-real-audio (issue 5): real read speech from Debian's pocketsphinx-testdata package, found
// where dpkg installed it at run time and read in place — nothing is bundled into the project.

export interface RealAudioSample {
  id: string;
  path: string;
  /** What the reader says, from the package's transcription file. */
  reference: string;
}

export const TESTDATA_PACKAGE = "pocketsphinx-testdata";

/** "<s> words </s> (id)" lines of a Sphinx transcription file. */
function parseTranscription(text: string): Map<string, string> {
  const references = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^(.*)\(([^()]+)\)\s*$/.exec(line.trim());
    if (match?.[1] && match[2]) references.set(match[2].trim(), match[1].replace(/<\/?s>/g, "").trim());
  }
  return references;
}

/**
 * The package's LibriVox clips that have a reference, longest reference first (the most words
 * give the most telling error rate); empty when the package is not installed.
 */
export async function realAudioSamples(): Promise<RealAudioSample[]> {
  let listing: string;
  try {
    listing = (await run("dpkg", ["-L", TESTDATA_PACKAGE], { timeout: 10_000 })).stdout;
  } catch {
    return [];
  }
  const files = listing.split("\n").map((line) => line.trim());
  const samples: RealAudioSample[] = [];
  for (const transcription of files.filter((f) => path.basename(f) === "transcription")) {
    let references: Map<string, string>;
    try {
      references = parseTranscription(await readFile(transcription, "utf8"));
    } catch {
      continue;
    }
    for (const [id, reference] of references) {
      const wav = path.join(path.dirname(transcription), `${id}.wav`);
      if (reference && files.includes(wav)) samples.push({ id, path: wav, reference });
    }
  }
  return samples.sort((a, b) => b.reference.length - a.reference.length);
}
