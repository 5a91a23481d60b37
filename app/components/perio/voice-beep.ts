// The audible half of "a short audible or visual confirmation" (issue 14): a short high blip when
// a value is accepted, a lower longer one when an utterance is rejected, so the hygienist need not
// look up from the mouth. Played on the voice mode's own AudioContext (already running: it was
// started by the click on "Start"). Quiet and brief on purpose: the microphone is open, and a long
// tone could be heard back as speech (the grammar would reject it, but it would cost a turn).

export type BeepKind = "accepted" | "rejected";

const TONES: Record<BeepKind, { hz: number; seconds: number }> = {
  accepted: { hz: 1320, seconds: 0.06 },
  rejected: { hz: 330, seconds: 0.16 },
};

export function beep(context: BaseAudioContext, kind: BeepKind): void {
  const { hz, seconds } = TONES[kind];
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = "sine";
  osc.frequency.value = hz;
  const t0 = context.currentTime;
  // A ramp in and out avoids the click of a square edge.
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(0.15, t0 + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + seconds);
  osc.connect(gain);
  gain.connect(context.destination);
  osc.start(t0);
  osc.stop(t0 + seconds + 0.02);
}

const BEEP_KEY = "murmur.perio.voiceBeep";

/** The user's choice, on this device (on unless turned off). */
export function readBeepPreference(): boolean {
  try {
    return globalThis.localStorage?.getItem(BEEP_KEY) !== "off";
  } catch {
    return true;
  }
}

export function writeBeepPreference(on: boolean): void {
  try {
    globalThis.localStorage?.setItem(BEEP_KEY, on ? "on" : "off");
  } catch {
    // Private mode or storage disabled: the choice lasts for this page only.
  }
}
