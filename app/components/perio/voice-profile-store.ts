import type { VoiceLanguage } from "#app/services/perio/voice-grammar.ts";
import { PROFILE_VERSION, type VoiceProfile } from "#app/services/perio/voice-profile.ts";

// Where a hygienist's voice profile lives (issue 14; ADR 0035): this browser's localStorage only, one
// entry per signed-in user and voice language, so a shared surgery computer keeps each user's voice
// apart and nothing of anyone's voice (audio or features) is ever sent to the server. An entry from
// another PROFILE_VERSION, or one that no longer parses, is removed: the user enrols again.

/** The slice of the Web Storage API the store needs (tests pass an in-memory one). */
export type ProfileStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const PREFIX = "murmur.perio.voiceProfile";

export function voiceProfileKey(userId: string, lang: VoiceLanguage): string {
  return `${PREFIX}.${userId}.${lang}`;
}

function browserStorage(): ProfileStorage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage can be blocked (privacy settings): then there is simply no profile.
    return null;
  }
}

function isProfile(value: unknown, lang: VoiceLanguage): value is VoiceProfile {
  if (typeof value !== "object" || value === null) return false;
  const p = value as Partial<VoiceProfile>;
  return (
    p.version === PROFILE_VERSION &&
    p.lang === lang &&
    Array.isArray(p.templates) &&
    p.templates.every((t) => typeof t?.value === "number" && Array.isArray(t.frames)) &&
    (typeof p.typical === "number" || p.typical === null)
  );
}

export function loadVoiceProfile(
  userId: string,
  lang: VoiceLanguage,
  storage: ProfileStorage | null = browserStorage(),
): VoiceProfile | null {
  if (!storage) return null;
  const key = voiceProfileKey(userId, lang);
  const raw = storage.getItem(key);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isProfile(parsed, lang)) {
      // JSON has no Infinity: a profile without two takes of any number stored `typical` as null.
      return { ...parsed, typical: parsed.typical ?? Number.POSITIVE_INFINITY };
    }
  } catch {
    // Falls through: an unreadable entry is dropped like an outdated one.
  }
  storage.removeItem(key);
  return null;
}

/** False when the browser refused to store it (storage full or blocked). */
export function saveVoiceProfile(
  userId: string,
  profile: VoiceProfile,
  storage: ProfileStorage | null = browserStorage(),
): boolean {
  if (!storage) return false;
  try {
    storage.setItem(voiceProfileKey(userId, profile.lang as VoiceLanguage), JSON.stringify(profile));
    return true;
  } catch {
    return false;
  }
}

export function deleteVoiceProfile(userId: string, lang: VoiceLanguage, storage: ProfileStorage | null = browserStorage()): void {
  storage?.removeItem(voiceProfileKey(userId, lang));
}
