import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * espeak-ng voices pocketsphinx's en-us acoustic model recognises: the Klatt-synthesiser variants.
 * The default formant voices come out far from real speech (WER > 0.6 whatever the LM; docs/speech.md).
 */
export const RECOGNISABLE_VOICES = ["en-us+klatt", "en-us+klatt4", "en-gb-x-rp+klatt"] as const;

export function readSentences(relativePath: string): string[] {
  return readFileSync(new URL(`../../${relativePath}`, import.meta.url), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}

/** Speaks `text` into a WAV (espeak-ng's 22.05 kHz output: the tests normalise it like any upload). */
export function speak(text: string, path: string, voice: string = RECOGNISABLE_VOICES[0], wordsPerMinute = 150): string {
  execFileSync("espeak-ng", ["-v", voice, "-s", String(wordsPerMinute), "-w", path, text]);
  return path;
}

export function ffmpeg(args: readonly string[]): void {
  execFileSync("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", ...args]);
}

export async function withTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "murmur-speech-test-"));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function makeTempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "murmur-speech-test-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Whether espeak-ng is installed (the perio voice tests skip without it; the speech suite needs it). */
export const haveEspeak: boolean = (() => {
  try {
    execFileSync("espeak-ng", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
