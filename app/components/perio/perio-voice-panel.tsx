import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { VoiceCommand, VoiceLanguage } from "#app/services/perio/voice-grammar.ts";
import { useVoiceCharting } from "./use-voice-charting.ts";

/** Start/stop hands-free charting, in English or French (the two offline models), and show what was heard. */
export function PerioVoicePanel({ onCommand }: { onCommand: (cmd: VoiceCommand) => boolean }) {
  const { t } = useTranslation("perio");
  const locale = useLocale();
  const [lang, setLang] = useState<VoiceLanguage>(locale === "fr" ? "fr" : "en");
  const voice = useVoiceCharting(onCommand);
  const listening = voice.state === "listening" || voice.state === "loading";
  return (
    <div className="perio-voice" data-testid="perio-voice" data-state={voice.state}>
      <label>
        {t("voice.language")}
        <select value={lang} onChange={(e) => setLang(e.target.value as VoiceLanguage)} disabled={listening}>
          <option value="en">English</option>
          <option value="fr">Français</option>
        </select>
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
      {voice.heard ? (
        <p aria-live="polite" data-testid="perio-voice-heard" data-accepted={voice.heard.accepted}>
          {t(voice.heard.accepted ? "voice.heard_ok" : "voice.heard_rejected", { text: voice.heard.text })}
        </p>
      ) : null}
    </div>
  );
}
