import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import { assignRoles } from "#app/services/speech/diarise/cluster.ts";
import { diariseSegments } from "#app/services/speech/diarise/diarise.server.ts";
import roleModel from "#app/services/speech/diarise/role-model.json" with { type: "json" };
import { textRoleScore } from "#app/services/speech/diarise/roles.ts";
import { diarisationErrors } from "#app/services/speech/diarise/wder.ts";
import { ffmpeg, haveEspeak, speak, withTempDir } from "./synth.ts";

// Issue 26: who said what, on two-voice dialogues spoken by espeak-ng (roles known). The lines
// were written for this test; none is in the role model's training dialogues.
const DIALOGUE: ["clinician" | "patient", string][] = [
  ["clinician", "Good morning, what brings you to the clinic today?"],
  ["patient", "I have had a sore throat and a cough for about five days now."],
  ["clinician", "Have you noticed any fever or chills at night?"],
  ["patient", "Yes, I felt hot last night and I was shivering in bed."],
  ["clinician", "Are you bringing up any phlegm when you cough?"],
  ["patient", "A little bit, it is yellow in the morning."],
  ["clinician", "Do you smoke, or does anyone at home smoke?"],
  ["patient", "No, I stopped smoking three years ago."],
  ["clinician", "Okay, I am going to listen to your chest now. Take a deep breath for me."],
  ["patient", "Sure. It hurts a bit when I breathe in deeply."],
  ["clinician", "Your lungs sound clear. I think this is a viral infection, so rest and drink plenty of fluids."],
  ["patient", "Thank you, doctor. Should I come back if it gets worse?"],
];

/** Speaks each line with its role's voice, 0.5 s apart, into one 16 kHz WAV; returns the segments' times. */
async function dialogueRecording(dir: string, voices: Record<"clinician" | "patient", string>) {
  const parts: string[] = [];
  const list: string[] = [];
  for (const [i, [role, line]] of DIALOGUE.entries()) {
    const path = join(dir, `turn-${i}.wav`);
    speak(line, path, voices[role]);
    const normalised = join(dir, `turn-${i}-16k.wav`);
    ffmpeg(["-i", path, "-ac", "1", "-ar", "16000", "-af", "apad=pad_dur=0.5", "-c:a", "pcm_s16le", normalised]);
    parts.push(normalised);
    list.push(`file '${normalised}'`);
  }
  const { writeFileSync } = await import("node:fs");
  writeFileSync(join(dir, "list.txt"), list.join("\n"));
  ffmpeg(["-f", "concat", "-safe", "0", "-i", join(dir, "list.txt"), "-c:a", "pcm_s16le", join(dir, "joined.wav")]);
  const audio = await normaliseAudio(join(dir, "joined.wav"), join(dir, "dialogue.wav"));
  let at = 0;
  const segments = [];
  for (const [i, [, line]] of DIALOGUE.entries()) {
    const { durationSec } = await normaliseAudio(parts[i] as string, join(dir, `probe-${i}.wav`));
    segments.push({ start: at, end: at + durationSec - 0.5, text: line.toLowerCase() });
    at += durationSec;
  }
  expect(Math.abs(at - audio.durationSec)).toBeLessThan(0.2);
  return { path: audio.path, segments };
}

describe.skipIf(!haveEspeak)("diarisation of espeak-ng two-voice dialogues", () => {
  for (const voices of [
    { clinician: "en-us+klatt", patient: "en-gb-x-rp+klatt4" },
    { clinician: "en-gb-x-rp+klatt4", patient: "en-us+klatt" },
  ]) {
    it(`names every line's role (clinician ${voices.clinician}, patient ${voices.patient})`, async () => {
      await withTempDir(async (dir) => {
        const { path, segments } = await dialogueRecording(dir, voices);
        const roles = await diariseSegments(path, segments);
        expect(roles).toEqual(DIALOGUE.map(([role]) => role));
      });
    }, 60_000);
  }

  it("the voice names a line whose words say little: a patient's short reply", async () => {
    await withTempDir(async (dir) => {
      const { path, segments } = await dialogueRecording(dir, { clinician: "en-us+klatt", patient: "en-gb-x-rp+klatt4" });
      const short = [...segments];
      // "Sure." alone: no word of it leans either way, so only the voice can tell.
      short[9] = { ...(segments[9] as (typeof segments)[number]), text: "sure" };
      expect(textRoleScore(roleModel, "sure")).toBe(0);
      expect((await diariseSegments(path, short))[9]).toBe("patient");
    });
  }, 60_000);
});

describe("role assignment", () => {
  it("without two voices, the words alone decide; with no evidence, null", () => {
    const roles = assignRoles([
      { voice: null, duration: 2, text: 4 },
      { voice: null, duration: 2, text: -3 },
      { voice: null, duration: 2, text: 0 },
    ]);
    expect(roles).toEqual(["clinician", "patient", null]);
  });

  it("the role model reads history questions as the clinician's and symptoms as the patient's", () => {
    expect(textRoleScore(roleModel, "how long have you had the pain and does it spread anywhere")).toBeGreaterThan(2);
    expect(textRoleScore(roleModel, "i have been feeling dizzy and my chest hurts")).toBeLessThan(-2);
  });

  it("word diarisation error counts wrong roles among correctly recognised words only", () => {
    const reference = [
      { word: "any", role: "clinician" },
      { word: "pain", role: "clinician" },
      { word: "yes", role: "patient" },
      { word: "here", role: "patient" },
    ];
    const hypothesis = [
      { word: "any", role: "clinician" },
      { word: "rain", role: "patient" },
      { word: "yes", role: "clinician" },
      { word: "here", role: null },
    ];
    expect(diarisationErrors(reference, hypothesis)).toEqual({ correctWords: 3, wrongRole: 2 });
  });
});
