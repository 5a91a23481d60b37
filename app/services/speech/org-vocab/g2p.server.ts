import { ipaToArpabet } from "#app/services/speech/clinical-lm/ipa-arpabet.ts";
import { runProcess } from "#app/services/speech/process.server.ts";

/**
 * Pronunciations for words the dictionary lacks. pocketsphinx has no letter-to-sound rules of its
 * own here; espeak-ng (installed with the speech stack) has English ones and prints IPA, which
 * ipa-arpabet.ts maps to the acoustic model's phones. One process for the whole list: each word
 * on its own line, ended by a full stop so espeak-ng never joins two words into one phrase.
 */
export async function pronounce(
  words: readonly string[],
  options: { signal?: AbortSignal } = {},
): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  const list = [...new Set(words)].filter((w) => /^[a-z][a-z']*$/.test(w));
  if (!list.length) return result;
  const lines: string[] = [];
  const run = await runProcess("espeak-ng", ["-q", "-v", "en-us", "--ipa"], {
    stdin: `${list.map((w) => `${w}.`).join("\n")}\n`,
    timeoutMs: 30_000 + list.length * 20,
    signal: options.signal,
    onStdoutLine: (line) => {
      if (line.trim()) lines.push(line.trim());
    },
    missingCode: "engine_unavailable",
    timeoutCode: "engine_timeout",
    failureCode: "engine_failed",
  });
  // A different line count means espeak-ng joined or split something: pairing would be wrong.
  if (run.exitCode !== 0 || lines.length !== list.length) {
    for (const w of list) {
      const one = await pronounceOne(w, options.signal);
      if (one) result.set(w, one);
    }
    return result;
  }
  list.forEach((w, i) => {
    const phones = safeArpabet(lines[i] ?? "");
    if (phones) result.set(w, phones);
  });
  return result;
}

async function pronounceOne(word: string, signal?: AbortSignal): Promise<string[] | null> {
  let ipa = "";
  const run = await runProcess("espeak-ng", ["-q", "-v", "en-us", "--ipa", word], {
    timeoutMs: 10_000,
    signal,
    onStdoutLine: (line) => {
      ipa += line;
    },
    missingCode: "engine_unavailable",
    timeoutCode: "engine_timeout",
    failureCode: "engine_failed",
  });
  return run.exitCode === 0 ? safeArpabet(ipa) : null;
}

/** A symbol the table does not know leaves the word out rather than guessing a phone. */
function safeArpabet(ipa: string): string[] | null {
  try {
    const phones = ipaToArpabet(ipa);
    return phones.length ? phones : null;
  } catch {
    return null;
  }
}
