import { createReadStream, createWriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { SpeechError } from "#app/services/speech/errors.ts";

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Byte offset of the first PCM sample. */
  dataOffset: number;
  dataBytes: number;
  durationSec: number;
}

const HEADER_PROBE_BYTES = 64 * 1024;

/** Reads a RIFF/WAVE header by walking its chunks (ffmpeg may write LIST before data). */
export async function readWavInfo(path: string): Promise<WavInfo> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    const probe = Buffer.alloc(Math.min(HEADER_PROBE_BYTES, size));
    await handle.read(probe, 0, probe.length, 0);
    return parseWavHeader(probe, size);
  } finally {
    await handle.close();
  }
}

export function parseWavHeader(header: Buffer, fileSize: number): WavInfo {
  if (header.length < 12 || header.toString("ascii", 0, 4) !== "RIFF" || header.toString("ascii", 8, 12) !== "WAVE") {
    throw new SpeechError("audio_unreadable", "not a RIFF/WAVE file");
  }
  let offset = 12;
  let format: { channels: number; sampleRate: number; bitsPerSample: number; audioFormat: number } | null = null;
  while (offset + 8 <= header.length) {
    const id = header.toString("ascii", offset, offset + 4);
    const size = header.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt " && body + 16 <= header.length) {
      format = {
        audioFormat: header.readUInt16LE(body),
        channels: header.readUInt16LE(body + 2),
        sampleRate: header.readUInt32LE(body + 4),
        bitsPerSample: header.readUInt16LE(body + 14),
      };
    } else if (id === "data") {
      if (!format) break;
      // 0xFFFFFFFF (or a short count) is what streaming writers leave when they could not seek back.
      const available = fileSize - body;
      const dataBytes = size === 0xffffffff || size > available ? available : size;
      const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
      // WAVE_FORMAT_PCM (1) or WAVE_FORMAT_EXTENSIBLE (0xfffe) carrying PCM.
      if (format.audioFormat !== 1 && format.audioFormat !== 0xfffe) break;
      return {
        sampleRate: format.sampleRate,
        channels: format.channels,
        bitsPerSample: format.bitsPerSample,
        dataOffset: body,
        dataBytes,
        durationSec: bytesPerSecond > 0 ? dataBytes / bytesPerSecond : 0,
      };
    }
    offset = body + size + (size % 2);
  }
  throw new SpeechError("audio_unreadable", "WAV file has no PCM data chunk");
}

export function wavHeader(dataBytes: number, sampleRate: number, channels = 1, bitsPerSample = 16): Buffer {
  const header = Buffer.alloc(44);
  const blockAlign = channels * (bitsPerSample / 8);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bitsPerSample, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** Copies [startSec, endSec) of a PCM WAV into a new WAV, cutting on sample-frame boundaries. */
export async function extractWavRange(source: string, info: WavInfo, startSec: number, endSec: number, target: string) {
  const frameBytes = info.channels * (info.bitsPerSample / 8);
  const bytesPerSecond = info.sampleRate * frameBytes;
  const from = Math.min(info.dataBytes, Math.floor((startSec * bytesPerSecond) / frameBytes) * frameBytes);
  const to = Math.min(info.dataBytes, Math.floor((endSec * bytesPerSecond) / frameBytes) * frameBytes);
  const length = Math.max(0, to - from);
  const out = createWriteStream(target);
  out.write(wavHeader(length, info.sampleRate, info.channels, info.bitsPerSample));
  if (length === 0) {
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return;
  }
  await pipeline(createReadStream(source, { start: info.dataOffset + from, end: info.dataOffset + from + length - 1 }), out);
}

/** Frame length of energyEnvelope: 10 ms, the decoders' own frame rate. */
export const ENVELOPE_FRAME_SEC = 0.01;

/** Mean absolute amplitude of each 10 ms frame of a 16-bit PCM WAV, read in one streaming pass. */
export async function energyEnvelope(path: string, info: WavInfo): Promise<Float32Array> {
  const frameBytes = info.channels * 2;
  const samplesPerFrame = Math.max(1, Math.round(info.sampleRate * ENVELOPE_FRAME_SEC));
  const bytesPerFrame = samplesPerFrame * frameBytes;
  const envelope = new Float32Array(Math.ceil(info.dataBytes / bytesPerFrame));
  if (info.bitsPerSample !== 16 || info.dataBytes === 0) return envelope;
  let carry: Buffer = Buffer.alloc(0);
  let frame = 0;
  const stream = createReadStream(path, { start: info.dataOffset, end: info.dataOffset + info.dataBytes - 1 });
  for await (const chunk of stream) {
    const data = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    let offset = 0;
    for (; offset + bytesPerFrame <= data.length; offset += bytesPerFrame) {
      let sum = 0;
      for (let i = offset; i < offset + bytesPerFrame; i += 2) sum += Math.abs(data.readInt16LE(i));
      envelope[frame++] = sum / (bytesPerFrame / 2);
    }
    carry = data.subarray(offset);
  }
  if (carry.length >= 2 && frame < envelope.length) {
    let sum = 0;
    for (let i = 0; i + 1 < carry.length; i += 2) sum += Math.abs(carry.readInt16LE(i));
    envelope[frame] = sum / Math.floor(carry.length / 2);
  }
  return envelope;
}

/**
 * The quietest moment in [min, max] seconds: the centre of the 200 ms stretch with the least
 * energy, so a cut falls between words rather than inside one. Ties keep the one nearest `target`.
 */
export function quietestPoint(envelope: Float32Array, target: number, min: number, max: number, spanSec = 0.2): number {
  const span = Math.max(1, Math.round(spanSec / ENVELOPE_FRAME_SEC));
  const first = Math.max(0, Math.floor(min / ENVELOPE_FRAME_SEC));
  const last = Math.min(envelope.length - span, Math.floor(max / ENVELOPE_FRAME_SEC) - span);
  if (last < first) return target;
  let sum = 0;
  for (let i = first; i < first + span; i++) sum += envelope[i] ?? 0;
  let best = first;
  let bestSum = sum;
  for (let i = first + 1; i <= last; i++) {
    sum += (envelope[i + span - 1] ?? 0) - (envelope[i - 1] ?? 0);
    const centre = (i + span / 2) * ENVELOPE_FRAME_SEC;
    const bestCentre = (best + span / 2) * ENVELOPE_FRAME_SEC;
    if (sum < bestSum - 1e-6 || (Math.abs(sum - bestSum) <= 1e-6 && Math.abs(centre - target) < Math.abs(bestCentre - target))) {
      best = i;
      bestSum = sum;
    }
  }
  return (best + span / 2) * ENVELOPE_FRAME_SEC;
}
