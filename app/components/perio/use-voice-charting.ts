import { useCallback, useEffect, useRef, useState } from "react";
import { parseVoice, type VoiceCommand, type VoiceLanguage } from "#app/services/perio/voice-grammar.ts";
import { createPerioDecoder, resampleTo, VOICE_SAMPLE_RATE } from "#app/services/perio/voice-recogniser.ts";

// Hands-free charting in the browser (issue 14; ADR 0014): the microphone stream is downsampled to
// 8 kHz, SoundSwallower's endpointer cuts it into utterances, and each utterance is decoded with the
// chart grammar on this device — no audio leaves it. What was heard goes to `onCommand`; text that
// is not in the grammar is rejected ("not understood") instead of being written.

export type VoiceState = "idle" | "loading" | "listening" | "error";
export type Heard = { text: string; accepted: boolean };

export function useVoiceCharting(onCommand: (cmd: VoiceCommand) => boolean) {
  const [state, setState] = useState<VoiceState>("idle");
  const [error, setError] = useState<string | null>(null);
  const [heard, setHeard] = useState<Heard | null>(null);
  const stopRef = useRef<(() => void) | null>(null);
  const commandRef = useRef(onCommand);
  commandRef.current = onCommand;

  const stop = useCallback(() => {
    stopRef.current?.();
    stopRef.current = null;
    setState("idle");
  }, []);

  const start = useCallback(
    async (lang: VoiceLanguage) => {
      setError(null);
      setState("loading");
      try {
        const { default: createModule } = await import("soundswallower");
        const ss = await createModule({ modelBase: "/perio-voice/model/" } as Parameters<typeof createModule>[0]);
        const decoder = await createPerioDecoder(ss, lang);
        const endpointer = new ss.Endpointer({ samprate: VOICE_SAMPLE_RATE });
        const frameSize = endpointer.get_frame_size();
        // The microphone opens once the model is ready, so nothing said meanwhile is half-heard.
        const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: false } });
        const context = new AudioContext();
        const source = context.createMediaStreamSource(stream);
        // ScriptProcessor is deprecated but runs everywhere without a separate worklet file; the
        // decoder is fast (about 20× real time), so the main thread keeps up.
        const processor = context.createScriptProcessor(4096, 1, 1);
        let pending = new Float32Array(0);
        let inUtterance = false;
        processor.onaudioprocess = (event) => {
          const input = resampleTo(event.inputBuffer.getChannelData(0), context.sampleRate, VOICE_SAMPLE_RATE);
          const joined = new Float32Array(pending.length + input.length);
          joined.set(pending);
          joined.set(input, pending.length);
          let offset = 0;
          for (; offset + frameSize <= joined.length; offset += frameSize) {
            const speech = endpointer.process(joined.subarray(offset, offset + frameSize));
            if (speech === null) continue;
            if (!inUtterance) {
              decoder.start();
              inUtterance = true;
            }
            decoder.process_audio(speech, false, false);
            if (!endpointer.get_in_speech()) {
              decoder.stop();
              inUtterance = false;
              const text = decoder.get_text();
              const cmd = parseVoice(text, lang);
              if (cmd?.kind === "stop") {
                setHeard({ text, accepted: true });
                stop();
                return;
              }
              const accepted = cmd !== null && commandRef.current(cmd);
              setHeard({ text, accepted });
            }
          }
          pending = joined.slice(offset);
        };
        source.connect(processor);
        processor.connect(context.destination);
        // Microphone loss (unplugged, permission revoked): stop and say so, like the recorder.
        for (const track of stream.getAudioTracks()) {
          track.onended = () => {
            stop();
            setError("microphone_lost");
            setState("error");
          };
        }
        stopRef.current = () => {
          processor.disconnect();
          source.disconnect();
          for (const track of stream.getTracks()) track.stop();
          void context.close();
          decoder.delete();
        };
        setState("listening");
      } catch (e) {
        setError(e instanceof DOMException && e.name === "NotAllowedError" ? "microphone_denied" : "voice_failed");
        setState("error");
      }
    },
    [stop],
  );

  useEffect(() => () => stopRef.current?.(), []);
  return { state, error, heard, start, stop };
}
