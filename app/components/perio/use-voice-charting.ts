import { useCallback, useEffect, useRef, useState } from "react";
import { LEXICONS, parseVoice, type VoiceCommand, type VoiceLanguage } from "#app/services/perio/voice-grammar.ts";
import { refineWithProfile } from "#app/services/perio/voice-profile.ts";
import { VOICE_SAMPLE_RATE } from "#app/services/perio/voice-recogniser.ts";
import { createWakeLockKeeper, type WakeLockLike } from "#app/services/recorder/wake-lock.ts";
import { beep } from "./voice-beep.ts";
import { joinAudio, loadVoiceEngine, openVoiceMicrophone } from "./voice-engine.ts";
import { loadVoiceProfile } from "./voice-profile-store.ts";

// Hands-free charting in the browser (issue 14; ADR 0014): the microphone stream is downsampled to
// 8 kHz, SoundSwallower's endpointer cuts it into utterances, and each utterance is decoded with the
// chart grammar on this device — no audio leaves it. What was heard goes to `onCommand`; text that
// is not in the grammar is rejected ("not understood") instead of being written. With a voice profile
// (ADR 0035, enrolled in perio-voice-enrol.tsx) the digits heard are checked against the user's own.
// While listening: each accepted value beeps (when wanted; the grid flashes the cells), the screen is
// kept on (Screen Wake Lock, as the recorder does) and a lost microphone stops voice mode with a
// message, detected the recorder's way (track `ended`, or a device change that left the track ended).

export type VoiceState = "idle" | "loading" | "listening" | "error";
/** What was heard and, when accepted, where it went (the grid's description). */
export type Heard = { text: string; accepted: boolean; where: string | null };
export type VoiceError = "microphone_lost" | "microphone_denied" | "voice_failed";

export function useVoiceCharting(
  onCommand: (cmd: VoiceCommand) => string | null,
  options: { beep: boolean; userId: string | null },
) {
  const [state, setState] = useState<VoiceState>("idle");
  const [error, setError] = useState<VoiceError | null>(null);
  const [heard, setHeard] = useState<Heard | null>(null);
  const [muted, setMuted] = useState(false);
  const [screenKeptOn, setScreenKeptOn] = useState(false);
  const [usingProfile, setUsingProfile] = useState(false);
  const stopRef = useRef<(() => void) | null>(null);
  const commandRef = useRef(onCommand);
  commandRef.current = onCommand;
  const beepRef = useRef(options.beep);
  beepRef.current = options.beep;
  const userIdRef = useRef(options.userId);
  userIdRef.current = options.userId;
  const wakeRef = useRef<ReturnType<typeof createWakeLockKeeper> | null>(null);

  const stop = useCallback(() => {
    stopRef.current?.();
    stopRef.current = null;
    void wakeRef.current?.release();
    setMuted(false);
    setState("idle");
  }, []);

  const lose = useCallback(() => {
    stop();
    setError("microphone_lost");
    setState("error");
  }, [stop]);

  const start = useCallback(
    async (lang: VoiceLanguage) => {
      setError(null);
      setHeard(null);
      setState("loading");
      try {
        const { decoder, endpointer } = await loadVoiceEngine(lang);
        // The user's voice profile, when they enrolled for this language (ADR 0035): each digit heard
        // is checked against their own recordings.
        const profile = userIdRef.current ? loadVoiceProfile(userIdRef.current, lang) : null;
        setUsingProfile(profile !== null);
        let inUtterance = false;
        // The samples fed to the decoder since start(): refineWithProfile re-reads the words from them.
        let utterance: Float32Array[] = [];
        const mic = await openVoiceMicrophone(endpointer.get_frame_size(), (frame) => {
          const speech = endpointer.process(frame);
          if (speech === null) return;
          if (!inUtterance) {
            decoder.start();
            inUtterance = true;
            utterance = [];
          }
          decoder.process_audio(speech, false, false);
          if (profile) utterance.push(speech.slice());
          if (endpointer.get_in_speech()) return;
          decoder.stop();
          inUtterance = false;
          const text = profile
            ? refineWithProfile(decoder, profile, joinAudio(utterance), LEXICONS[lang].numbers, VOICE_SAMPLE_RATE)
            : decoder.get_text();
          const cmd = parseVoice(text, lang);
          if (cmd?.kind === "stop") {
            setHeard({ text, accepted: true, where: null });
            stop();
            return;
          }
          const where = cmd === null ? null : commandRef.current(cmd);
          setHeard({ text, accepted: where !== null, where });
          if (beepRef.current) beep(mic.context, where !== null ? "accepted" : "rejected");
        });
        const { stream } = mic;

        const tracks = stream.getAudioTracks();
        const onEnded = () => lose();
        const onMute = () => setMuted(true);
        const onUnmute = () => setMuted(false);
        // Some browsers report an unplugged device only as a device change (as the recorder knows).
        const onDeviceChange = () => {
          if (tracks.some((track) => track.readyState === "ended")) lose();
        };
        for (const track of tracks) {
          track.addEventListener("ended", onEnded);
          track.addEventListener("mute", onMute);
          track.addEventListener("unmute", onUnmute);
        }
        navigator.mediaDevices.addEventListener?.("devicechange", onDeviceChange);

        // Keep the screen on while charting by voice: a sleeping device suspends the page and its
        // microphone. Browsers drop the lock when the tab is hidden; it is asked for again on return.
        const wakeLock = (navigator as Navigator & { wakeLock?: WakeLockLike }).wakeLock ?? null;
        const wake = createWakeLockKeeper(wakeLock, setScreenKeptOn);
        wakeRef.current = wake;
        const onVisible = () => {
          if (document.visibilityState === "visible") void wake.reacquire();
        };
        document.addEventListener("visibilitychange", onVisible);
        void wake.acquire();

        stopRef.current = () => {
          for (const track of tracks) {
            track.removeEventListener("ended", onEnded);
            track.removeEventListener("mute", onMute);
            track.removeEventListener("unmute", onUnmute);
          }
          navigator.mediaDevices.removeEventListener?.("devicechange", onDeviceChange);
          document.removeEventListener("visibilitychange", onVisible);
          mic.close();
          decoder.delete();
        };
        setState("listening");
      } catch (e) {
        setError(e instanceof DOMException && e.name === "NotAllowedError" ? "microphone_denied" : "voice_failed");
        setState("error");
      }
    },
    [stop, lose],
  );

  useEffect(
    () => () => {
      stopRef.current?.();
      void wakeRef.current?.release();
    },
    [],
  );
  return { state, error, heard, muted, screenKeptOn, usingProfile, start, stop };
}
