import { createHash, randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { readWavInfo } from "#app/services/speech/wav.server.ts";
import { chunkKey } from "#app/services/storage/keys.ts";
import { createLocalBlobStore } from "#app/services/storage/local-disk.server.ts";
import { assembleChunks, type StoredChunk } from "#app/services/visits/assemble.server.ts";
import { ffmpeg, makeTempDir, speak } from "#tests/speech/synth.ts";

// A reload or a lost microphone mid-visit starts a new MediaRecorder, so the visit's chunks hold
// several WebM streams back to back (each with its own EBML header). The assembled audio is their
// byte concatenation, and the pipeline must decode all of it, not just the first stream.

const SEGMENT_ID = 0x18538067;
const CLUSTER_ID = 0x1f43b675;
const UNKNOWN_SIZE = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);

function vintLength(first: number): number {
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  return length;
}

function element(file: Buffer, at: number): { id: number; idEnd: number; dataStart: number; end: number } {
  const idLength = vintLength(file[at] ?? 0);
  const id = file.readUIntBE(at, idLength);
  const sizeAt = at + idLength;
  const sizeLength = vintLength(file[sizeAt] ?? 0);
  let size = (file[sizeAt] ?? 0) & ((0x80 >> (sizeLength - 1)) - 1);
  let unknown = size === (0x80 >> (sizeLength - 1)) - 1;
  for (let i = 1; i < sizeLength; i++) {
    const byte = file[sizeAt + i] ?? 0;
    size = size * 256 + byte;
    if (byte !== 0xff) unknown = false;
  }
  const dataStart = sizeAt + sizeLength;
  return { id, idEnd: sizeAt, dataStart, end: unknown ? file.byteLength : dataStart + size };
}

/**
 * ffmpeg's live WebM rewritten the way Chromium's MediaRecorder writes it: the Segment and every
 * Cluster of unknown size, so a demuxer cannot skip a stream by its length.
 */
function asMediaRecorderWebm(file: Buffer): Buffer {
  const header = element(file, 0);
  const segment = element(file, header.end);
  expect(segment.id).toBe(SEGMENT_ID);
  const parts: Buffer[] = [file.subarray(0, segment.idEnd), UNKNOWN_SIZE];
  for (let at = segment.dataStart; at < segment.end; ) {
    const child = element(file, at);
    if (child.id === CLUSTER_ID)
      parts.push(file.subarray(at, child.idEnd), UNKNOWN_SIZE, file.subarray(child.dataStart, child.end));
    else parts.push(file.subarray(at, child.end));
    at = child.end;
  }
  return Buffer.concat(parts);
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/** MediaRecorder cuts its output at arbitrary byte offsets (a Cluster's ID may straddle two chunks). */
function slices(data: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < data.byteLength; at += size) out.push(data.subarray(at, at + size));
  return out;
}

async function pcmOf(path: string): Promise<Buffer> {
  const info = await readWavInfo(path);
  return (await readFile(path)).subarray(info.dataOffset, info.dataOffset + info.dataBytes);
}

describe("assembling a visit recorded in several MediaRecorder runs", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const streams: { webm: Buffer; pcm: Buffer; durationSec: number }[] = [];

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir());
    const phrases = ["The patient reports chest pain and shortness of breath.", "Continue lisinopril ten milligrams daily."];
    for (const [index, phrase] of phrases.entries()) {
      const wav = speak(phrase, join(dir, `run-${index}.wav`));
      const webmPath = join(dir, `run-${index}.webm`);
      ffmpeg([
        "-i",
        wav,
        "-ar",
        "48000",
        "-ac",
        "1",
        "-c:a",
        "libopus",
        "-b:a",
        "32k",
        "-live",
        "1",
        "-cluster_time_limit",
        "1000",
        webmPath,
      ]);
      const webm = asMediaRecorderWebm(await readFile(webmPath));
      const live = join(dir, `run-${index}-live.webm`);
      await writeFile(live, webm);
      const normalised = await normaliseAudio(live, join(dir, `run-${index}.norm.wav`));
      streams.push({ webm, pcm: await pcmOf(normalised.path), durationSec: normalised.durationSec });
    }
  });
  afterAll(() => cleanup());

  it("the fixture is what Chromium writes: clusters of unknown size, one EBML header per run", () => {
    expect(streams).toHaveLength(2);
    for (const { webm, durationSec } of streams) {
      expect(webm.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
      expect(webm.indexOf(Buffer.concat([Buffer.from([0x1f, 0x43, 0xb6, 0x75]), UNKNOWN_SIZE]))).toBeGreaterThan(0);
      expect(durationSec).toBeGreaterThan(1);
    }
  });

  it("keeps the byte concatenation of the chunks (its SHA-256 is the audio's), and every run decodes from it", async () => {
    const store = createLocalBlobStore(join(dir, "blobs"));
    const orgId = randomUUID();
    const visitId = randomUUID();
    const pieces = streams.flatMap((stream) => slices(stream.webm, 4000));
    const chunks: StoredChunk[] = [];
    for (const [seq, piece] of pieces.entries()) {
      const key = chunkKey(orgId, visitId, seq);
      await store.put(key, piece);
      chunks.push({ seq, sha256: sha256(piece), bytes: piece.byteLength, storage_key: key });
    }
    // Out of order on purpose: assembly follows seq.
    const assembled = await assembleChunks(store, [...chunks].reverse());
    try {
      const whole = Buffer.concat(pieces);
      expect(assembled.bytes).toBe(whole.byteLength);
      expect(assembled.sha256).toBe(sha256(whole));
      expect(Buffer.from(await readFile(assembled.path))).toEqual(whole);

      const normalised = await normaliseAudio(assembled.path, join(dir, "assembled.norm.wav"));
      const expected = streams.reduce((sum, stream) => sum + stream.durationSec, 0);
      expect(normalised.durationSec).toBeCloseTo(expected, 1);
      // The runs one after the other. The next run's encoder delay (a few ms) may stay in at the join,
      // so each run is compared aligned to its own end.
      const pcm = await pcmOf(normalised.path);
      const [first, second] = streams;
      if (!first || !second) throw new Error("two runs expected");
      expect(Math.abs(pcm.byteLength - first.pcm.byteLength - second.pcm.byteLength)).toBeLessThan(16_000 * 2 * 0.05);
      // Energy of the difference relative to the run's own: about 0.02 where a run sits (the decoder
      // carries its state across the join), about 2 for a run missing or misplaced by 1 ms.
      const residual = (a: Buffer, b: Buffer) => {
        let error = 0;
        let signal = 0;
        for (let at = 0; at < b.byteLength; at += 2) {
          error += (a.readInt16LE(at) - b.readInt16LE(at)) ** 2;
          signal += b.readInt16LE(at) ** 2;
        }
        return error / signal;
      };
      expect(residual(pcm.subarray(0, first.pcm.byteLength), first.pcm)).toBeLessThan(0.1);
      expect(residual(pcm.subarray(pcm.byteLength - second.pcm.byteLength), second.pcm)).toBeLessThan(0.1);
    } finally {
      await assembled.discard();
    }
  });
});
