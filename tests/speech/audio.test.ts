import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseAudio, probeAudio, splitWav } from "#app/services/speech/audio.server.ts";
import { isSpeechError, type SpeechError } from "#app/services/speech/errors.ts";
import { readWavInfo } from "#app/services/speech/wav.server.ts";
import { ffmpeg, makeTempDir, speak } from "#tests/speech/synth.ts";

let dir: string;
let cleanup: () => Promise<void>;
let speech: string;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  speech = speak("Bleeding on probing on the lower left molar.", join(dir, "speech.wav"));
});
afterAll(() => cleanup());

async function expectSpeechError(promise: Promise<unknown>, code: SpeechError["code"]): Promise<SpeechError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isSpeechError(error), `expected SpeechError ${code}, got ${String(error)}`).toBe(true);
  expect((error as SpeechError).code).toBe(code);
  expect((error as SpeechError).reason.length).toBeGreaterThan(0);
  return error as SpeechError;
}

// What browsers and phones record: MediaRecorder's webm/opus and ogg/opus, Safari's m4a/aac, mp3, and 44.1 kHz stereo WAV.
const formats = [
  { name: "wav (44.1 kHz stereo)", file: "in.wav", args: ["-ac", "2", "-ar", "44100", "-c:a", "pcm_s16le"], codec: "pcm_s16le" },
  { name: "mp3", file: "in.mp3", args: ["-ar", "44100", "-c:a", "libmp3lame", "-b:a", "64k"], codec: "mp3" },
  { name: "ogg/vorbis", file: "in.ogg", args: ["-c:a", "libvorbis"], codec: "vorbis" },
  { name: "webm/opus", file: "in.webm", args: ["-ar", "48000", "-c:a", "libopus", "-b:a", "32k"], codec: "opus" },
  { name: "m4a/aac", file: "in.m4a", args: ["-ar", "44100", "-c:a", "aac", "-b:a", "64k"], codec: "aac" },
];

describe("normaliseAudio", () => {
  it.each(formats)("turns $name into 16 kHz mono 16-bit WAV of the same length", async ({ file, args, codec }) => {
    const source = join(dir, file);
    // 3 s: speech followed by a tone, so the length is known whatever the codec's padding.
    ffmpeg([
      "-i",
      speech,
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:duration=3",
      "-filter_complex",
      "[0:a][1:a]amix=inputs=2:duration=longest",
      "-t",
      "3",
      ...args,
      source,
    ]);
    const out = join(dir, `${file}.norm.wav`);
    const result = await normaliseAudio(source, out);
    expect(result.source.codec).toBe(codec);
    const info = await readWavInfo(out);
    expect(info).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
    // Lossy codecs add up to ~50 ms of priming/padding.
    expect(Math.abs(result.durationSec - 3)).toBeLessThan(0.1);
    expect(result.durationSec).toBeCloseTo(info.durationSec, 6);
  });

  it("accepts bytes as well as a path", async () => {
    const source = join(dir, "bytes.webm");
    ffmpeg(["-i", speech, "-c:a", "libopus", source]);
    const result = await normaliseAudio(await readFile(source), join(dir, "bytes.wav"));
    expect(result.durationSec).toBeGreaterThan(1);
  });

  it("rejects random bytes as audio_unreadable", async () => {
    const garbage = join(dir, "garbage.webm");
    const bytes = Buffer.alloc(64 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    await writeFile(garbage, bytes);
    await expectSpeechError(normaliseAudio(garbage, join(dir, "garbage.wav")), "audio_unreadable");
  });

  it("rejects a text file and an image without audio as audio_unreadable", async () => {
    const text = join(dir, "notes.mp3");
    await writeFile(text, "Patient notes, not audio.\n".repeat(100));
    await expectSpeechError(normaliseAudio(text, join(dir, "text.wav")), "audio_unreadable");
    const image = join(dir, "image.png");
    ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=32x32", "-frames:v", "1", image]);
    const error = await expectSpeechError(normaliseAudio(image, join(dir, "image.wav")), "audio_unreadable");
    expect(error.reason).toMatch(/unsupported container|no audio stream/);
  });

  it("rejects an empty file and an empty buffer as audio_empty", async () => {
    const empty = join(dir, "empty.wav");
    await writeFile(empty, "");
    await expectSpeechError(normaliseAudio(empty, join(dir, "empty-out.wav")), "audio_empty");
    await expectSpeechError(normaliseAudio(new Uint8Array(0), join(dir, "empty-out2.wav")), "audio_empty");
  });

  it("rejects a header with no samples as audio_empty", async () => {
    const source = join(dir, "zero.wav");
    ffmpeg(["-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "0.02", "-c:a", "pcm_s16le", source]);
    await expectSpeechError(normaliseAudio(source, join(dir, "zero-out.wav")), "audio_empty");
  });

  it("rejects audio over the limit as audio_too_long, even when the container does not state a duration", async () => {
    const source = join(dir, "long.wav");
    ffmpeg(["-f", "lavfi", "-i", "sine=frequency=300:duration=5", "-c:a", "pcm_s16le", source]);
    await expectSpeechError(normaliseAudio(source, join(dir, "long-out.wav"), { maxDurationSec: 2 }), "audio_too_long");
    // MediaRecorder-style webm written to a pipe carries no duration: the limit must still hold.
    const streamed = join(dir, "streamed.webm");
    const piped = execFileSync("ffmpeg", [
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=300:duration=5",
      "-c:a",
      "libopus",
      "-f",
      "webm",
      "pipe:1",
    ]);
    await writeFile(streamed, piped);
    expect((await probeAudio(streamed)).durationSec).toBeNull();
    await expectSpeechError(normaliseAudio(streamed, join(dir, "streamed-out.wav"), { maxDurationSec: 2 }), "audio_too_long");
  });

  it("reports a missing ffmpeg as audio_tool_missing", async () => {
    await expectSpeechError(probeAudio(speech, { ffprobePath: "/nonexistent/ffprobe" }), "audio_tool_missing");
  });
});

describe("splitWav", () => {
  it("cuts a normalised WAV into overlapping windows, moving the cut into a pause", async () => {
    const source = join(dir, "tone70.wav");
    // A 70 s tone with one 0.6 s pause at 26.8 s, inside the first cut's reach (29 ± 5 s).
    ffmpeg([
      ...["-f", "lavfi", "-i", "sine=frequency=500:duration=70", "-af", "volume=enable='between(t,26.8,27.4)':volume=0"],
      ...["-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", source],
    ]);
    const windows = await splitWav(source, { windowSec: 30, overlapSec: 2 }, dir);
    expect(windows).toHaveLength(3);
    const [first, second, third] = windows;
    expect(first?.to).toBeGreaterThanOrEqual(26.8);
    expect(first?.to).toBeLessThanOrEqual(27.4);
    expect(first?.start).toBe(0);
    expect(third?.end).toBe(70);
    expect(third?.to).toBe(70);
    // Trusted spans tile the audio; each window reaches 1 s past its cuts.
    expect(second?.from).toBe(first?.to);
    expect(third?.from).toBe(second?.to);
    expect((first?.end ?? 0) - (second?.start ?? 0)).toBeCloseTo(2, 3);
    for (const window of windows) {
      const info = await readWavInfo(window.path);
      expect(info.durationSec).toBeCloseTo(window.end - window.start, 3);
      expect(info.sampleRate).toBe(16_000);
    }
  });
});
