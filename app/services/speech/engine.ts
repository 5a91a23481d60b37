import { SpeechError } from "#app/services/speech/errors.ts";
import type { OrgVocabulary } from "#app/services/speech/org-vocab/model-cache.server.ts";

/** Times are seconds from the start of the audio given to the engine, millisecond precision. */
export interface TranscriptWord {
  start: number;
  end: number;
  word: string;
  /** 0–1 when the engine reports one. */
  confidence?: number;
}

export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
  /** Word timings when the engine gives them; the long-audio merge cuts overlaps on them. */
  words?: TranscriptWord[];
}

export interface TranscriptResult {
  text: string;
  segments: TranscriptSegment[];
  /** Engine id, stored with the transcript so a re-run or a bench knows what produced it. */
  engine: string;
  model?: string;
  language: string;
}

export interface TranscribeOptions {
  /** ISO 639-1 code of the visit's language ("en", "fr", "es"). */
  language: string;
  signal?: AbortSignal;
  /** Called once per finished segment, in order, while the engine is still working. */
  onSegment?: (segment: TranscriptSegment) => void;
  /**
   * State an engine may keep between consecutive windows of one recording (transcribeLongAudio
   * and chunk-by-chunk transcription pass the same object to every call, in order). Opaque to callers.
   */
  carry?: Record<string, unknown>;
  /**
   * The organisation's own words (ADR 0032), for engines that can learn them (pocketsphinx builds
   * an adapted copy of its model); others ignore it. Never shared between organisations.
   */
  vocabulary?: OrgVocabulary;
}

/** A 16 kHz mono 16-bit PCM WAV (see normaliseAudio), as a path or as its bytes. */
export type EngineAudio = string | Uint8Array;

/** How the long-audio splitter should cut audio for this engine (see windows.ts). */
export interface WindowPolicy {
  windowSec: number;
  overlapSec: number;
}

export interface SpeechEngine {
  readonly id: string;
  readonly languages: readonly string[];
  readonly window: WindowPolicy;
  /** The model transcripts will record, when known without decoding (Whisper reports it after verification). */
  readonly model?: string;
  supports(language: string): boolean;
  transcribe(audio: EngineAudio, options: TranscribeOptions): Promise<TranscriptResult>;
}

/** "en-US", "EN", "en_gb" → "en": engines are chosen per language, not per region. */
export function baseLanguage(language: string): string {
  return language.trim().toLowerCase().split(/[-_]/)[0] ?? "";
}

export type EngineSelection =
  | { ok: true; engine: SpeechEngine }
  | { ok: false; code: "no_engine_for_language"; language: string; available: string[] };

export interface EngineRegistry {
  readonly engines: readonly SpeechEngine[];
  /** Every language at least one configured engine accepts. */
  languages(): string[];
  pick(language: string): EngineSelection;
  /** Like pick, but throws SpeechError("no_engine_for_language") so a job fails with a clear state. */
  require(language: string): SpeechEngine;
}

/**
 * Engines are tried in the order given (configuration decides it, e.g. ASR_ENGINE); per-language
 * overrides name an engine id to prefer for that language.
 */
export function createEngineRegistry(
  engines: readonly SpeechEngine[],
  preferByLanguage: Readonly<Record<string, string>> = {},
): EngineRegistry {
  const languages = () => [...new Set(engines.flatMap((e) => e.languages.map(baseLanguage)))].sort();
  const pick = (language: string): EngineSelection => {
    const lang = baseLanguage(language);
    const preferred = preferByLanguage[lang];
    const ordered = preferred ? [...engines].sort((a, b) => Number(b.id === preferred) - Number(a.id === preferred)) : engines;
    const engine = ordered.find((e) => e.supports(lang));
    if (engine) return { ok: true, engine };
    return { ok: false, code: "no_engine_for_language", language: lang, available: languages() };
  };
  return {
    engines,
    languages,
    pick,
    require(language) {
      const selection = pick(language);
      if (selection.ok) return selection.engine;
      const available = selection.available.join(", ") || "none";
      throw new SpeechError("no_engine_for_language", `no speech engine for "${selection.language}" (available: ${available})`);
    },
  };
}
