// The voice-profile store (issue 14; ADR 0035): one profile per user and voice language in this
// browser's storage, outdated or unreadable entries dropped. The store takes any Web Storage; an
// in-memory one stands in for localStorage here (the store never touches the DOM otherwise). Also the
// enrolment's fixed prompt order and its take-length rule.
import { describe, expect, it } from "vitest";
import { ENROL_ORDER, takeProblem } from "#app/components/perio/use-voice-enrolment.ts";
import {
  deleteVoiceProfile,
  loadVoiceProfile,
  type ProfileStorage,
  saveVoiceProfile,
  voiceProfileKey,
} from "#app/components/perio/voice-profile-store.ts";
import { PROFILE_VERSION, type VoiceProfile } from "#app/services/perio/voice-profile.ts";

function memoryStorage(): ProfileStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
  };
}

function profile(lang: string, typical = 1.25): VoiceProfile {
  return {
    version: PROFILE_VERSION,
    lang,
    templates: [
      {
        value: 3,
        frames: [
          [0.125, -1.5],
          [0.25, 2],
        ],
      },
      { value: 8, frames: [[1, 0]] },
    ],
    typical,
  };
}

describe("voice profile store", () => {
  it("saves, loads and deletes a profile", () => {
    const s = memoryStorage();
    expect(loadVoiceProfile("u1", "en", s)).toBeNull();
    expect(saveVoiceProfile("u1", profile("en"), s)).toBe(true);
    expect(loadVoiceProfile("u1", "en", s)).toEqual(profile("en"));
    deleteVoiceProfile("u1", "en", s);
    expect(loadVoiceProfile("u1", "en", s)).toBeNull();
    expect(s.map.size).toBe(0);
  });

  it("keeps users and voice languages apart", () => {
    const s = memoryStorage();
    saveVoiceProfile("u1", profile("en", 1), s);
    saveVoiceProfile("u1", profile("fr", 2), s);
    saveVoiceProfile("u2", profile("en", 3), s);
    expect(loadVoiceProfile("u1", "en", s)?.typical).toBe(1);
    expect(loadVoiceProfile("u1", "fr", s)?.typical).toBe(2);
    expect(loadVoiceProfile("u2", "en", s)?.typical).toBe(3);
    expect(loadVoiceProfile("u2", "fr", s)).toBeNull();
    deleteVoiceProfile("u1", "en", s);
    expect(loadVoiceProfile("u1", "en", s)).toBeNull();
    expect(loadVoiceProfile("u1", "fr", s)?.typical).toBe(2);
    expect(loadVoiceProfile("u2", "en", s)?.typical).toBe(3);
  });

  it("drops a profile of another version, or one that does not parse, and removes it", () => {
    const s = memoryStorage();
    s.setItem(voiceProfileKey("u1", "en"), JSON.stringify({ ...profile("en"), version: PROFILE_VERSION + 1 }));
    s.setItem(voiceProfileKey("u1", "fr"), "{not json");
    s.setItem(voiceProfileKey("u2", "en"), JSON.stringify({ version: PROFILE_VERSION, lang: "en", templates: "x" }));
    expect(loadVoiceProfile("u1", "en", s)).toBeNull();
    expect(loadVoiceProfile("u1", "fr", s)).toBeNull();
    expect(loadVoiceProfile("u2", "en", s)).toBeNull();
    expect(s.map.size).toBe(0);
  });

  it("does not hand out a profile stored under another language's key", () => {
    const s = memoryStorage();
    s.setItem(voiceProfileKey("u1", "fr"), JSON.stringify(profile("en")));
    expect(loadVoiceProfile("u1", "fr", s)).toBeNull();
  });

  it("keeps an infinite typical distance through JSON (stored as null)", () => {
    const s = memoryStorage();
    saveVoiceProfile("u1", profile("en", Number.POSITIVE_INFINITY), s);
    expect(JSON.parse(s.getItem(voiceProfileKey("u1", "en")) ?? "{}").typical).toBeNull();
    expect(loadVoiceProfile("u1", "en", s)?.typical).toBe(Number.POSITIVE_INFINITY);
  });

  it("reports a refused write (storage full) instead of throwing", () => {
    const s = memoryStorage();
    s.setItem = () => {
      throw new DOMException("full", "QuotaExceededError");
    };
    expect(saveVoiceProfile("u1", profile("en"), s)).toBe(false);
  });

  it("has no profile without storage (server render, blocked storage)", () => {
    expect(loadVoiceProfile("u1", "en", null)).toBeNull();
    expect(saveVoiceProfile("u1", profile("en"), null)).toBe(false);
  });
});

describe("enrolment takes", () => {
  it("prompts 0…9 three times, in order", () => {
    expect(ENROL_ORDER).toHaveLength(30);
    expect(ENROL_ORDER.slice(0, 12)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1]);
    expect(ENROL_ORDER.slice(-1)).toEqual([9]);
  });

  it("refuses an utterance shorter than 0.15 s or longer than 2.5 s", () => {
    expect(takeProblem(0.1 * 8000)).toBe("too_short");
    expect(takeProblem(0.15 * 8000)).toBeNull();
    expect(takeProblem(0.6 * 8000)).toBeNull();
    expect(takeProblem(2.5 * 8000)).toBeNull();
    expect(takeProblem(2.6 * 8000)).toBe("too_long");
  });
});
