import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { VoiceCommand, VoiceLanguage } from "#app/services/perio/voice-grammar.ts";
import { PerioVoiceEnrol } from "./perio-voice-enrol.tsx";
import { useVoiceCharting } from "./use-voice-charting.ts";
import { useVoiceLock } from "./use-voice-lock.ts";
import { readBeepPreference, writeBeepPreference } from "./voice-beep.ts";
import { deleteVoiceProfile, loadVoiceProfile } from "./voice-profile-store.ts";

/**
 * Start/stop hands-free charting, in English or French (the two offline models). While listening:
 * a live "heard … → where it went" line, a beep per accepted value (can be turned off), the exam
 * locked (leaving asks first) and the screen kept on. Below, the user's voice profile for the chosen
 * language (ADR 0035): teach, retrain or remove it; it stays in this browser.
 */
export function PerioVoicePanel({ onCommand, userId }: { onCommand: (cmd: VoiceCommand) => string | null; userId: string }) {
  const { t } = useTranslation("perio");
  const locale = useLocale();
  const [lang, setLang] = useState<VoiceLanguage>(locale === "fr" ? "fr" : "en");
  // Read after hydration: the server has no localStorage, and both renders must agree first.
  const [beepOn, setBeepOn] = useState(true);
  useEffect(() => setBeepOn(readBeepPreference()), []);
  const voice = useVoiceCharting(onCommand, { beep: beepOn, userId });
  const listening = voice.state === "listening" || voice.state === "loading";
  const leave = useVoiceLock(listening, voice.stop);
  const profile = useProfilePresence(userId, lang);
  const [enrolling, setEnrolling] = useState(false);
  return (
    <div className="perio-voice" data-testid="perio-voice" data-state={voice.state}>
      <label>
        {t("voice.language")}
        <select value={lang} onChange={(e) => setLang(e.target.value as VoiceLanguage)} disabled={listening}>
          <option value="en">English</option>
          <option value="fr">Français</option>
        </select>
      </label>
      <label className="perio-voice-beep">
        <input
          type="checkbox"
          checked={beepOn}
          onChange={(e) => {
            setBeepOn(e.target.checked);
            writeBeepPreference(e.target.checked);
          }}
          data-testid="perio-voice-beep"
        />
        {t("voice.beep")}
      </label>
      <button
        type="button"
        className="ui-button"
        data-variant={listening ? "secondary" : undefined}
        onClick={() => (listening ? voice.stop() : void voice.start(lang))}
        data-testid="perio-voice-toggle"
      >
        {t(listening ? "voice.stop" : "voice.start")}
      </button>
      <p aria-live="polite" data-testid="perio-voice-status">
        {voice.state === "loading" ? t("voice.loading") : null}
        {voice.state === "listening" ? t("voice.listening") : null}
        {voice.error ? <span role="alert">{t(`errors.${voice.error}`)}</span> : null}
      </p>
      {voice.state === "listening" ? (
        <p className="perio-voice-lock" data-testid="perio-voice-lock" data-profile={voice.usingProfile}>
          {t("voice.locked")} {voice.screenKeptOn ? t("voice.screen_on") : null}{" "}
          {voice.usingProfile ? t("voice.profile_in_use") : null}
        </p>
      ) : null}
      {profile.known ? (
        <p className="perio-voice-profile" data-testid="perio-voice-profile" data-profile={profile.saved}>
          {profile.saved ? (
            <>
              <span>{t("voice.profile_saved")}</span>
              <span className="perio-voice-profile-actions">
                <ProfileAction onClick={() => setEnrolling(true)} disabled={listening} testId="perio-voice-retrain">
                  {t("voice.profile_retrain")}
                </ProfileAction>
                <ProfileAction onClick={profile.remove} disabled={listening} testId="perio-voice-remove">
                  {t("voice.profile_remove")}
                </ProfileAction>
              </span>
            </>
          ) : (
            <>
              <span>{t("voice.profile_none")}</span>
              <ProfileAction onClick={() => setEnrolling(true)} disabled={listening} testId="perio-voice-teach">
                {t("voice.profile_teach")}
              </ProfileAction>
            </>
          )}
        </p>
      ) : null}
      <PerioVoiceEnrol open={enrolling} onOpenChange={setEnrolling} userId={userId} lang={lang} onSaved={profile.refresh} />
      {voice.muted ? (
        <p role="alert" data-testid="perio-voice-muted">
          {t("voice.muted")}
        </p>
      ) : null}
      <p
        className="perio-voice-heard"
        aria-live="polite"
        data-testid="perio-voice-heard"
        data-accepted={voice.heard ? voice.heard.accepted : undefined}
      >
        {voice.heard
          ? voice.heard.accepted && voice.heard.where
            ? t("voice.heard_to", { text: voice.heard.text, where: voice.heard.where })
            : voice.heard.accepted
              ? t("voice.heard_ok", { text: voice.heard.text })
              : t("voice.heard_rejected", { text: voice.heard.text })
          : null}
      </p>
      {leave ? (
        <dialog open aria-labelledby="perio-voice-leave-title" data-testid="perio-voice-leave">
          <article>
            <h3 id="perio-voice-leave-title">{t("voice.leave_title")}</h3>
            <p>{t("voice.leave_body")}</p>
            <footer>
              <button type="button" className="secondary" onClick={leave.stay}>
                {t("voice.leave_stay")}
              </button>
              <button type="button" onClick={leave.stopAndLeave} data-testid="perio-voice-leave-go">
                {t("voice.leave_go")}
              </button>
            </footer>
          </article>
        </dialog>
      ) : null}
    </div>
  );
}

/** Whether this user has a profile for `lang` in this browser, read after hydration (no localStorage on the server). */
function useProfilePresence(userId: string, lang: VoiceLanguage) {
  const [saved, setSaved] = useState<boolean | null>(null);
  const refresh = useCallback(() => setSaved(loadVoiceProfile(userId, lang) !== null), [userId, lang]);
  useEffect(refresh, [refresh]);
  return {
    known: saved !== null,
    saved: saved === true,
    refresh,
    remove: () => {
      deleteVoiceProfile(userId, lang);
      refresh();
    },
  };
}

/** A voice-profile action (teach, retrain, remove): a ghost button, off while listening. */
function ProfileAction(props: { onClick: () => void; disabled: boolean; testId: string; children: React.ReactNode }) {
  return (
    <button
      type="button"
      className="ui-button"
      data-variant="ghost"
      onClick={props.onClick}
      disabled={props.disabled}
      data-testid={props.testId}
    >
      {props.children}
    </button>
  );
}
