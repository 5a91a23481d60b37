import type { Decoder, Endpointer } from "soundswallower";
import type { VoiceLanguage } from "#app/services/perio/voice-grammar.ts";
import { createPerioDecoder, resampleTo, VOICE_SAMPLE_RATE } from "#app/services/perio/voice-recogniser.ts";

// The browser end of voice charting shared by charting and the voice-profile enrolment (issue 14;
// ADR 0014): SoundSwallower loaded on this device with the chart grammar, and the microphone cut
// into the endpointer's frames at 8 kHz. No audio leaves the page.

export async function loadVoiceEngine(lang: VoiceLanguage): Promise<{ decoder: Decoder; endpointer: Endpointer }> {
  const { default: createModule } = await import("soundswallower");
  // modelBase is read by the package's loader but missing from its type declarations.
  const ss = await createModule({ modelBase: "/perio-voice/model/" } as Parameters<typeof createModule>[0]);
  const decoder = await createPerioDecoder(ss, lang);
  const endpointer = new ss.Endpointer({ samprate: VOICE_SAMPLE_RATE });
  return { decoder, endpointer };
}

export type VoiceMicrophone = { stream: MediaStream; context: AudioContext; close: () => void };

/**
 * Opens the microphone and hands `onFrame` the audio downsampled to 8 kHz in frames of `frameSize`
 * samples (the endpointer's). Open it once the model is ready, so nothing said meanwhile is half-heard.
 */
export async function openVoiceMicrophone(frameSize: number, onFrame: (frame: Float32Array) => void): Promise<VoiceMicrophone> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: false } });
  const context = new AudioContext();
  const source = context.createMediaStreamSource(stream);
  // ScriptProcessor is deprecated but runs everywhere without a separate worklet file; the decoder
  // is fast (about 20× real time), so the main thread keeps up.
  const processor = context.createScriptProcessor(4096, 1, 1);
  let pending = new Float32Array(0);
  let closed = false;
  processor.onaudioprocess = (event) => {
    const input = resampleTo(event.inputBuffer.getChannelData(0), context.sampleRate, VOICE_SAMPLE_RATE);
    const joined = new Float32Array(pending.length + input.length);
    joined.set(pending);
    joined.set(input, pending.length);
    let offset = 0;
    for (; offset + frameSize <= joined.length; offset += frameSize) {
      // onFrame may close the microphone (and free the decoder): the rest of this buffer is dropped.
      if (closed) return;
      onFrame(joined.subarray(offset, offset + frameSize));
    }
    pending = joined.slice(offset);
  };
  source.connect(processor);
  processor.connect(context.destination);
  return {
    stream,
    context,
    close: () => {
      closed = true;
      processor.onaudioprocess = null;
      processor.disconnect();
      source.disconnect();
      for (const track of stream.getTracks()) track.stop();
      void context.close();
    },
  };
}

/** One utterance's speech frames as one buffer (the endpointer's frames may be views it reuses). */
export function joinAudio(chunks: Float32Array[]): Float32Array {
  const out = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
