import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WindowPolicy } from "#app/services/speech/engine.ts";
import { SpeechError } from "#app/services/speech/errors.ts";
import { lastLine, runProcess } from "#app/services/speech/process.server.ts";
import { energyEnvelope, extractWavRange, quietestPoint, readWavInfo } from "#app/services/speech/wav.server.ts";
import { type AudioWindow, planWindows } from "#app/services/speech/windows.ts";

export { mergeWindowSegments, planWindows } from "#app/services/speech/windows.ts";

/** What every engine receives: 16 kHz mono 16-bit PCM (what pocketsphinx's en-us model was trained on). */
export const TARGET_SAMPLE_RATE = 16_000;
/** SPEC: uploads up to 500 MB; a 4-hour cap bounds a visit far above any real one. */
export const DEFAULT_MAX_DURATION_SEC = 4 * 60 * 60;
/** Shorter than a syllable: nothing to transcribe. */
export const MIN_DURATION_SEC = 0.1;

/**
 * Containers accepted (ffprobe format names). ffmpeg decodes far more (images, subtitles, video
 * games' formats); accepting only what a browser or phone records keeps the attack surface small.
 */
const ACCEPTED_FORMATS = new Set([
  "wav",
  "mp3",
  "mov",
  "mp4",
  "m4a",
  "matroska",
  "webm",
  "ogg",
  "flac",
  "aac",
  "aiff",
  "caf",
  "w64",
]);

export interface AudioProbe {
  /** ffprobe's container name, e.g. "wav", "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm". */
  format: string;
  codec: string;
  /** Null when the container does not say (MediaRecorder's webm has no duration). */
  durationSec: number | null;
  sampleRate: number | null;
  channels: number | null;
}

export interface NormalisedAudio {
  path: string;
  durationSec: number;
  bytes: number;
  source: AudioProbe;
}

export interface AudioToolOptions {
  signal?: AbortSignal;
  /** Per tool run; defaults scale with the input (see normaliseAudio). */
  timeoutMs?: number;
  ffmpegPath?: string;
  ffprobePath?: string;
}

interface FfprobeJson {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; codec_name?: string; sample_rate?: string; channels?: number }[];
}

export async function probeAudio(path: string, options: AudioToolOptions = {}): Promise<AudioProbe> {
  const size = await stat(path).then(
    (s) => s.size,
    () => -1,
  );
  if (size < 0) throw new SpeechError("audio_unreadable", "file not found");
  if (size === 0) throw new SpeechError("audio_empty", "file is empty");
  const result = await runProcess(
    options.ffprobePath ?? "ffprobe",
    ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path],
    {
      timeoutMs: options.timeoutMs ?? 30_000,
      signal: options.signal,
      missingCode: "audio_tool_missing",
      timeoutCode: "audio_unreadable",
      failureCode: "audio_unreadable",
    },
  );
  if (result.exitCode !== 0)
    throw new SpeechError("audio_unreadable", lastLine(result.stderr) || "ffprobe could not read the file");
  let parsed: FfprobeJson;
  try {
    parsed = JSON.parse(result.stdout) as FfprobeJson;
  } catch {
    throw new SpeechError("audio_unreadable", "ffprobe gave no usable description");
  }
  const format = parsed.format?.format_name ?? "";
  if (!format.split(",").some((name) => ACCEPTED_FORMATS.has(name))) {
    throw new SpeechError("audio_unreadable", `unsupported container "${format || "unknown"}"`);
  }
  const stream = parsed.streams?.find((s) => s.codec_type === "audio");
  if (!stream) throw new SpeechError("audio_unreadable", "no audio stream");
  const duration = Number.parseFloat(parsed.format?.duration ?? "");
  const sampleRate = Number.parseInt(stream.sample_rate ?? "", 10);
  return {
    format,
    codec: stream.codec_name ?? "unknown",
    durationSec: Number.isFinite(duration) ? duration : null,
    sampleRate: Number.isFinite(sampleRate) ? sampleRate : null,
    channels: stream.channels ?? null,
  };
}

/**
 * Converts any accepted recording to the engines' input format at `outputPath` (first audio stream,
 * downmixed, resampled), then measures the result from its PCM size: containers such as
 * MediaRecorder's webm do not state a duration, and a file can claim one it does not hold.
 */
export async function normaliseAudio(
  input: string | Uint8Array,
  outputPath: string,
  options: AudioToolOptions & { maxDurationSec?: number } = {},
): Promise<NormalisedAudio> {
  const maxDurationSec = options.maxDurationSec ?? DEFAULT_MAX_DURATION_SEC;
  let scratch: string | null = null;
  try {
    let inputPath: string;
    if (typeof input === "string") {
      inputPath = input;
    } else {
      if (input.byteLength === 0) throw new SpeechError("audio_empty", "no bytes");
      // A file, not a pipe: mp4/m4a keep their index at the end and ffmpeg must seek to it.
      scratch = await mkdtemp(join(tmpdir(), "murmur-audio-"));
      inputPath = join(scratch, "input");
      await writeFile(inputPath, input);
    }
    const source = await probeAudio(inputPath, options);
    if (source.durationSec !== null && source.durationSec > maxDurationSec + 1) {
      throw new SpeechError("audio_too_long", `${Math.round(source.durationSec)} s exceeds the ${maxDurationSec} s limit`);
    }
    const result = await runProcess(
      options.ffmpegPath ?? "ffmpeg",
      [
        ...["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", inputPath],
        ...["-map", "0:a:0", "-vn", "-sn", "-dn", "-ac", "1", "-ar", String(TARGET_SAMPLE_RATE)],
        ...["-c:a", "pcm_s16le", "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact"],
        // One second past the limit so an over-long file is detected, not silently truncated.
        ...["-t", String(maxDurationSec + 1), "-f", "wav", outputPath],
      ],
      {
        // Decoding runs at >100× real time here; the floor covers slow disks and process start-up.
        timeoutMs: options.timeoutMs ?? 60_000 + Math.ceil((source.durationSec ?? maxDurationSec) * 50),
        signal: options.signal,
        missingCode: "audio_tool_missing",
        timeoutCode: "audio_unreadable",
        failureCode: "audio_unreadable",
      },
    );
    if (result.exitCode !== 0) {
      throw new SpeechError("audio_unreadable", lastLine(result.stderr) || `ffmpeg exited with ${result.exitCode}`);
    }
    const info = await readWavInfo(outputPath);
    if (info.durationSec < MIN_DURATION_SEC) {
      throw new SpeechError("audio_empty", `only ${info.durationSec.toFixed(3)} s of audio`);
    }
    if (info.durationSec > maxDurationSec) {
      throw new SpeechError("audio_too_long", `more than the ${maxDurationSec} s limit`);
    }
    return { path: outputPath, durationSec: info.durationSec, bytes: info.dataOffset + info.dataBytes, source };
  } catch (error) {
    await rm(outputPath, { force: true });
    throw error;
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

export interface WavWindowFile extends AudioWindow {
  path: string;
}

/**
 * Writes each window of a normalised WAV as its own WAV in `directory` (sample-exact cuts, no
 * re-encoding), with cuts moved to pauses. transcribeLongAudio does the same one window at a time.
 */
export async function splitWav(wavPath: string, policy: WindowPolicy, directory: string): Promise<WavWindowFile[]> {
  const info = await readWavInfo(wavPath);
  const envelope = await energyEnvelope(wavPath, info);
  const windows = planWindows(info.durationSec, policy, (target, min, max) => quietestPoint(envelope, target, min, max));
  const files: WavWindowFile[] = [];
  for (const window of windows) {
    const path = join(directory, `window-${String(window.index).padStart(5, "0")}.wav`);
    await extractWavRange(wavPath, info, window.start, window.end, path);
    files.push({ ...window, path });
  }
  return files;
}
