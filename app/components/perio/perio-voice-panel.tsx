import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { VoiceCommand, VoiceLanguage } from "#app/services/perio/voice-grammar.ts";
import { useVoiceCharting } from "./use-voice-charting.ts";
import { useVoiceLock } from "./use-voice-lock.ts";
import { readBeepPreference, writeBeepPreference } from "./voice-beep.ts";

/**
 * Start/stop hands-free charting, in English or French (the two offline models). While listening:
 * a live "heard … → where it went" line, a beep per accepted value (can be turned off), the exam
 * locked (leaving asks first) and the screen kept on.
 */
export function PerioVoicePanel({ onCommand }: { onCommand: (cmd: VoiceCommand) => string | null }) {
  const { t } = useTranslation("perio");
  const locale = useLocale();
  const [lang, setLang] = useState<VoiceLanguage>(locale === "fr" ? "fr" : "en");
  // Read after hydration: the server has no localStorage, and both renders must agree first.
  const [beepOn, setBeepOn] = useState(true);
  useEffect(() => setBeepOn(readBeepPreference()), []);
  const voice = useVoiceCharting(onCommand, { beep: beepOn });
  const listening = voice.state === "listening" || voice.state === "loading";
  const leave = useVoiceLock(listening, voice.stop);
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
        <p className="perio-voice-lock" data-testid="perio-voice-lock">
          {t("voice.locked")} {voice.screenKeptOn ? t("voice.screen_on") : null}
        </p>
      ) : null}
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
