import { useCallback, useEffect, useRef, useState } from "react";
import type { Decoder } from "soundswallower";
import type { VoiceLanguage } from "#app/services/perio/voice-grammar.ts";
import { buildProfile, ENROL_TAKES, ENROL_VALUES } from "#app/services/perio/voice-profile.ts";
import { VOICE_SAMPLE_RATE } from "#app/services/perio/voice-recogniser.ts";
import { joinAudio, loadVoiceEngine, openVoiceMicrophone, type VoiceMicrophone } from "./voice-engine.ts";
import { saveVoiceProfile } from "./voice-profile-store.ts";

// "Teach Murmur your voice" (issue 14; ADR 0035): the numbers are prompted in a fixed order, 0…9
// ENROL_TAKES times, and each utterance the endpointer cuts out of the microphone is one take of the
// number on screen. A fixed order (not shuffled) keeps it predictable for the user and lets the
// fake-microphone test play the takes in the same order.

export const ENROL_ORDER: readonly number[] = Array.from({ length: ENROL_TAKES }, () => ENROL_VALUES).flat();
/** Shorter than this is a click or a breath, not a number (seconds of speech frames). */
export const MIN_TAKE_S = 0.15;
/** Longer than this is more than one number, or talk in the room. */
export const MAX_TAKE_S = 2.5;

export type EnrolPhase = "intro" | "loading" | "prompting" | "saving" | "done" | "error";
export type EnrolError = "microphone_denied" | "voice_failed" | "not_saved";
export type EnrolRejection = "too_short" | "too_long";

/** Why an utterance of `samples` speech samples (8 kHz) cannot be a take, or null when it can. */
export function takeProblem(samples: number): EnrolRejection | null {
  const seconds = samples / VOICE_SAMPLE_RATE;
  return seconds < MIN_TAKE_S ? "too_short" : seconds > MAX_TAKE_S ? "too_long" : null;
}

export function useVoiceEnrolment({ userId, lang, onSaved }: { userId: string; lang: VoiceLanguage; onSaved: () => void }) {
  const [phase, setPhase] = useState<EnrolPhase>("intro");
  const [error, setError] = useState<EnrolError | null>(null);
  const [rejected, setRejected] = useState<EnrolRejection | null>(null);
  const [step, setStep] = useState(0);
  const takesRef = useRef<{ value: number; audio: Float32Array }[]>([]);
  const sessionRef = useRef<{ mic: VoiceMicrophone | null; decoder: Decoder | null; cancelled: boolean } | null>(null);
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;

  const close = useCallback(() => {
    const session = sessionRef.current;
    sessionRef.current = null;
    if (!session) return;
    session.cancelled = true;
    session.mic?.close();
    session.decoder?.delete();
  }, []);

  const finish = useCallback(
    (decoder: Decoder) => {
      const session = sessionRef.current;
      session?.mic?.close();
      if (session) session.mic = null;
      setPhase("saving");
      // Let "saving" paint before the (short) feature extraction and matching runs on this thread.
      window.setTimeout(() => {
        if (sessionRef.current !== session) return;
        const profile = buildProfile(decoder, lang, takesRef.current);
        close();
        takesRef.current = [];
        if (saveVoiceProfile(userId, profile)) {
          setPhase("done");
          onSavedRef.current();
        } else {
          setError("not_saved");
          setPhase("error");
        }
      }, 50);
    },
    [close, lang, userId],
  );

  const start = useCallback(async () => {
    close();
    const session: { mic: VoiceMicrophone | null; decoder: Decoder | null; cancelled: boolean } = {
      mic: null,
      decoder: null,
      cancelled: false,
    };
    sessionRef.current = session;
    takesRef.current = [];
    setStep(0);
    setRejected(null);
    setError(null);
    setPhase("loading");
    try {
      const { decoder, endpointer } = await loadVoiceEngine(lang);
      session.decoder = decoder;
      if (session.cancelled) {
        decoder.delete();
        return;
      }
      let speech: Float32Array[] = [];
      let inSpeech = false;
      session.mic = await openVoiceMicrophone(endpointer.get_frame_size(), (frame) => {
        const out = endpointer.process(frame);
        if (out === null) return;
        if (!inSpeech) speech = [];
        inSpeech = true;
        speech.push(out.slice());
        if (endpointer.get_in_speech()) return;
        inSpeech = false;
        const audio = joinAudio(speech);
        const takes = takesRef.current;
        if (takes.length >= ENROL_ORDER.length) return;
        const problem = takeProblem(audio.length);
        if (problem) {
          setRejected(problem);
          return;
        }
        takes.push({ value: ENROL_ORDER[takes.length] as number, audio });
        setRejected(null);
        setStep(takes.length);
        if (takes.length === ENROL_ORDER.length) finish(decoder);
      });
      if (session.cancelled) {
        session.mic.close();
        return;
      }
      setPhase("prompting");
    } catch (e) {
      close();
      setError(e instanceof DOMException && e.name === "NotAllowedError" ? "microphone_denied" : "voice_failed");
      setPhase("error");
    }
  }, [close, finish, lang]);

  /** Drops the last take: its number is asked again. */
  const redo = useCallback(() => {
    const takes = takesRef.current;
    if (takes.length === 0 || takes.length >= ENROL_ORDER.length) return;
    takes.pop();
    setRejected(null);
    setStep(takes.length);
  }, []);

  // Closing the dialog (Cancel, Escape, leaving the page) stops the microphone and keeps nothing.
  useEffect(() => close, [close]);

  return {
    phase,
    error,
    rejected,
    step,
    total: ENROL_ORDER.length,
    prompt: ENROL_ORDER[Math.min(step, ENROL_ORDER.length - 1)] as number,
    start,
    redo,
  };
}
