import fs from "node:fs";
import path from "node:path";

// A fake-microphone recording of spoken site triplets, chained at test time from the shared
// real-speech digit recordings (CC BY-SA: used in tests only, never committed or shipped).
export const DIGITS_DIR = path.resolve(process.cwd(), "../shared/data/speech-digits/recordings");

function readPcm16(file: string): { samples: Int16Array; rate: number } {
  const b = fs.readFileSync(file);
  let offset = 12;
  let rate = 8000;
  while (offset + 8 <= b.length) {
    const id = b.toString("ascii", offset, offset + 4);
    const size = b.readUInt32LE(offset + 4);
    if (id === "fmt ") rate = b.readUInt32LE(offset + 12);
    if (id === "data")
      return { samples: new Int16Array(b.buffer.slice(b.byteOffset + offset + 8, b.byteOffset + offset + 8 + size)), rate };
    offset += 8 + size + (size % 2);
  }
  throw new Error(`${file}: no data`);
}

/** Writes a mono 8 kHz WAV: 3 s lead silence, each triplet with 250 ms gaps, 1.5 s between triplets. */
export function writeTripletsWav(out: string, triplets: number[][], speaker: string, take: number): void {
  writeUtterancesWav(
    out,
    triplets.map((triplet) => triplet.map((digit) => [digit, take] as const)),
    speaker,
  );
}

/**
 * Writes a mono 8 kHz WAV of utterances, each a list of [digit, take] recordings of one speaker said
 * 250 ms apart: 3 s lead silence, `gap` seconds between utterances, 3 s at the end.
 */
export function writeUtterancesWav(
  out: string,
  utterances: readonly (readonly (readonly [number, number])[])[],
  speaker: string,
  gap = 1.5,
): void {
  const rate = 8000;
  const parts: Int16Array[] = [];
  let seed = 1;
  const silence = (seconds: number) => {
    const s = new Int16Array(Math.round(rate * seconds));
    for (let i = 0; i < s.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      s[i] = Math.round((seed / 2147483648 - 0.5) * 100);
    }
    return s;
  };
  parts.push(silence(3));
  for (const utterance of utterances) {
    utterance.forEach(([digit, take], i) => {
      if (i > 0) parts.push(silence(0.25));
      const clip = readPcm16(path.join(DIGITS_DIR, `${digit}_${speaker}_${take}.wav`));
      if (clip.rate !== rate) throw new Error(`${digit}_${speaker}_${take}.wav: ${clip.rate} Hz, expected ${rate}`);
      parts.push(clip.samples);
    });
    parts.push(silence(gap));
  }
  parts.push(silence(3));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const buf = Buffer.alloc(44 + total * 2);
  buf.write("RIFF", 0);
  buf.writeUInt32LE(36 + total * 2, 4);
  buf.write("WAVEfmt ", 8);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36);
  buf.writeUInt32LE(total * 2, 40);
  let at = 44;
  for (const p of parts)
    for (const v of p) {
      buf.writeInt16LE(v, at);
      at += 2;
    }
  fs.writeFileSync(out, buf);
}
