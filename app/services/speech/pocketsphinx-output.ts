import type { TranscriptSegment, TranscriptWord } from "#app/services/speech/engine.ts";
import { round } from "#app/services/speech/windows.ts";

// `pocketsphinx_continuous -time yes` prints, per utterance, the hypothesis then one line per word:
// "<word> <start s> <end s> <posterior>", bracketed by <s> … </s>; times are from the file's start.
const WORD_LINE = /^(\S+) (-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/;

/** Silence, noise and utterance markers are not words: <s>, </s>, <sil>, [NOISE], [SPEECH], ++BREATH++. */
function isFiller(token: string): boolean {
  return token.startsWith("<") || token.startsWith("[") || token.startsWith("++");
}

/** A pause this long between two words starts a new segment (a phrase or sentence in dictation). */
export const SEGMENT_PAUSE_SEC = 0.3;
/** Segments longer than this are cut at their longest pause, so click-to-seek lands near the word. */
export const MAX_SEGMENT_SEC = 20;

/** Splits an utterance's words into segments at pauses; word times are kept. */
export function segmentsFromWords(words: readonly TranscriptWord[]): TranscriptSegment[] {
  const groups: TranscriptWord[][] = [];
  let current: TranscriptWord[] = [];
  for (const word of words) {
    const previous = current.at(-1);
    if (previous && word.start - previous.end >= SEGMENT_PAUSE_SEC) {
      groups.push(current);
      current = [];
    }
    current.push(word);
  }
  if (current.length > 0) groups.push(current);
  return groups.flatMap(cutLongGroup).map((group) => ({
    start: group[0]?.start ?? 0,
    end: group.at(-1)?.end ?? 0,
    text: group.map((w) => w.word).join(" "),
    words: group,
  }));
}

function cutLongGroup(group: TranscriptWord[]): TranscriptWord[][] {
  const first = group[0];
  const last = group.at(-1);
  if (!first || !last || last.end - first.start <= MAX_SEGMENT_SEC || group.length < 2) return [group];
  let cut = 1;
  let widest = -1;
  for (let i = 1; i < group.length; i++) {
    const gap = (group[i]?.start ?? 0) - (group[i - 1]?.end ?? 0);
    if (gap > widest) {
      widest = gap;
      cut = i;
    }
  }
  return [...cutLongGroup(group.slice(0, cut)), ...cutLongGroup(group.slice(cut))];
}

/** Feeds stdout lines in order and emits an utterance's segments as soon as its </s> arrives. */
export function createPocketsphinxParser(onSegment: (segment: TranscriptSegment) => void) {
  let words: TranscriptWord[] = [];
  const flush = () => {
    for (const segment of segmentsFromWords(words)) onSegment(segment);
    words = [];
  };
  return {
    line(raw: string) {
      const match = WORD_LINE.exec(raw.trim());
      if (!match) return;
      const [, token = "", start = "0", end = "0", posterior = "0"] = match;
      if (token === "<s>") {
        flush();
        return;
      }
      if (token === "</s>") {
        flush();
        return;
      }
      if (isFiller(token)) return;
      words.push({
        // Alternative pronunciations come back as "word(2)".
        word: token.replace(/\(\d+\)$/, ""),
        start: round(Number(start)),
        end: round(Number(end)),
        confidence: Math.min(1, Math.max(0, Number(posterior))),
      });
    },
    end: flush,
  };
}

export function parsePocketsphinxOutput(stdout: string): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  const parser = createPocketsphinxParser((s) => segments.push(s));
  for (const line of stdout.split("\n")) parser.line(line);
  parser.end();
  return segments;
}
