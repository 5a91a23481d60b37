// How far a transcript can be trusted (issue 27 "Transcript quality, told honestly"), from what
// the engine told us: word confidence and the share of unsure words, speech rate, the share of
// silence, the engine's tier. Isomorphic and deterministic: computed from the stored version, so
// every version (old ones included) has it and GET /api/visits/:id shows it.
import { LOW_CONFIDENCE } from "#app/services/speech/confidence.ts";

export type TranscriptQualityTier = "good" | "check" | "poor";
export type TranscriptQualityReason =
  | "low_confidence"
  | "many_unsure_words"
  | "speech_rate"
  | "silence"
  | "basic_engine"
  | "no_confidence"
  | "empty";

export interface TranscriptQuality {
  tier: TranscriptQualityTier;
  /** 0–1, higher is better. */
  score: number;
  reasons: TranscriptQualityReason[];
}

interface QualityInput {
  source: "engine" | "import" | "edit";
  engine: string;
  text: string;
  segments: readonly { start: number; end: number; text: string; confidence?: number[] }[];
}

/** The embedded recogniser made for commands; free dictation through it is often wrong (docs/speech.md). */
const BASIC_ENGINES = /pocketsphinx/i;
/** Tier cut-offs: below GOOD a clinician should look at the transcript, below CHECK it is not a basis for a note. */
const GOOD = 0.8;
const CHECK = 0.55;

export function transcriptQuality(t: QualityInput): TranscriptQuality {
  // A person's text (an import or an edit) is what they meant: nothing for an engine to doubt.
  if (t.source !== "engine") return t.text.trim() ? { tier: "good", score: 1, reasons: [] } : poor(["empty"]);
  const segments = t.segments.filter((s) => s.text.trim());
  if (!segments.length) return t.text.trim() ? { tier: "check", score: 0.6, reasons: ["no_confidence"] } : poor(["empty"]);
  const reasons: TranscriptQualityReason[] = [];
  let score = 1;
  const confidences = segments.flatMap((s) => s.confidence ?? []);
  if (confidences.length) {
    const mean = confidences.reduce((a, b) => a + b, 0) / confidences.length;
    const unsure = confidences.filter((c) => c < LOW_CONFIDENCE).length / confidences.length;
    score = 0.5 * mean + 0.5 * (1 - unsure);
    if (mean < 0.7) reasons.push("low_confidence");
    if (unsure > 0.2) reasons.push("many_unsure_words");
    if (unsure > 0.4) score = Math.min(score, CHECK - 0.05);
  } else if (!BASIC_ENGINES.test(t.engine)) {
    reasons.push("no_confidence");
    score -= 0.1;
  }
  const words = segments.reduce((n, s) => n + s.text.split(/\s+/).filter(Boolean).length, 0);
  const speaking = segments.reduce((n, s) => n + Math.max(0, s.end - s.start), 0);
  const span = Math.max(0, (segments.at(-1)?.end ?? 0) - (segments[0]?.start ?? 0));
  // Conversational speech runs at about 2–3 words a second; far outside that the words were misheard.
  if (speaking > 5) {
    const rate = words / speaking;
    if (rate < 0.7 || rate > 5) {
      reasons.push("speech_rate");
      score -= 0.2;
    }
  }
  if (span > 20 && speaking / span < 0.4) {
    reasons.push("silence");
    score -= 0.1;
  }
  if (BASIC_ENGINES.test(t.engine)) {
    reasons.push("basic_engine");
    score -= 0.15;
  }
  score = Math.round(Math.min(1, Math.max(0, score)) * 100) / 100;
  return { tier: score >= GOOD ? "good" : score >= CHECK ? "check" : "poor", score, reasons };
}

function poor(reasons: TranscriptQualityReason[]): TranscriptQuality {
  return { tier: "poor", score: 0, reasons };
}
