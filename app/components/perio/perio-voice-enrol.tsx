import { Dialog } from "radix-ui";
import { useTranslation } from "react-i18next";
import { Icon } from "#app/components/ui/icons.tsx";
import type { VoiceLanguage } from "#app/services/perio/voice-grammar.ts";
import { useVoiceEnrolment } from "./use-voice-enrolment.ts";

const LANGUAGE_NAMES: Record<VoiceLanguage, string> = { en: "English", fr: "Français" };

/**
 * The enrolment dialog (issue 14; ADR 0035), opened from the voice panel: the user says the number on
 * screen, 30 times, and the profile is saved in this browser only. A Radix dialog, as elsewhere: focus
 * trapped, Escape or Cancel closes it and keeps nothing. A click outside does not close it, so a
 * stray tap does not throw away a minute of recordings.
 */
export function PerioVoiceEnrol({
  open,
  onOpenChange,
  userId,
  lang,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
  lang: VoiceLanguage;
  onSaved: () => void;
}) {
  const { t } = useTranslation("perio");
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="ui-overlay" />
        <Dialog.Content
          className="perio-enrol"
          data-testid="perio-voice-enrol"
          aria-describedby="perio-enrol-privacy"
          onInteractOutside={(e) => e.preventDefault()}
        >
          <div className="perio-enrol-head">
            <Dialog.Title>{t("enrol.title")}</Dialog.Title>
            <Dialog.Close className="ui-icon-button" aria-label={t("enrol.cancel")}>
              <Icon name="close" />
            </Dialog.Close>
          </div>
          {/* Mounted only while open: closing unmounts it, which stops the microphone. */}
          {open ? <EnrolSteps userId={userId} lang={lang} onSaved={onSaved} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function EnrolSteps({ userId, lang, onSaved }: { userId: string; lang: VoiceLanguage; onSaved: () => void }) {
  const { t } = useTranslation("perio");
  const enrol = useVoiceEnrolment({ userId, lang, onSaved });
  const cancel = (
    <Dialog.Close className="ui-button" data-variant="secondary" data-testid="perio-enrol-cancel">
      {t("enrol.cancel")}
    </Dialog.Close>
  );
  return (
    <div data-testid="perio-enrol-steps" data-phase={enrol.phase} data-step={enrol.step}>
      <p id="perio-enrol-privacy" className="perio-enrol-privacy">
        <Icon name="shield" className="shrink-0" /> {t("enrol.privacy")}
      </p>
      {enrol.phase === "intro" || enrol.phase === "error" ? (
        <>
          <p>{t("enrol.intro", { total: enrol.total })}</p>
          <p className="perio-enrol-muted">{t("enrol.language", { language: LANGUAGE_NAMES[lang] })}</p>
          {enrol.error ? (
            <p role="alert" className="perio-enrol-error" data-testid="perio-enrol-error">
              {t(`enrol.errors.${enrol.error}`)}
            </p>
          ) : null}
          <div className="perio-enrol-actions">
            <button type="button" className="ui-button" onClick={() => void enrol.start()} data-testid="perio-enrol-start">
              {t(enrol.error ? "enrol.try_again" : "enrol.start")}
            </button>
            {cancel}
          </div>
        </>
      ) : null}
      {enrol.phase === "loading" ? (
        <p role="status" data-testid="perio-enrol-loading">
          {t("enrol.loading")}
        </p>
      ) : null}
      {enrol.phase === "prompting" ? (
        <>
          <div className="perio-enrol-prompt" aria-live="polite" aria-atomic="true" data-testid="perio-enrol-prompt">
            <span className="perio-enrol-number" aria-hidden="true">
              {enrol.prompt}
            </span>
            <span className="perio-enrol-say">{t("enrol.say", { number: enrol.prompt })}</span>
            <span className="perio-enrol-muted" data-testid="perio-enrol-progress">
              {t("enrol.progress", { current: enrol.step + 1, total: enrol.total })}
            </span>
          </div>
          <progress className="perio-enrol-bar" value={enrol.step} max={enrol.total} aria-label={t("enrol.progress_label")} />
          <p className="perio-enrol-error" aria-live="assertive" data-testid="perio-enrol-rejected">
            {enrol.rejected ? t(`enrol.${enrol.rejected}`, { number: enrol.prompt }) : null}
          </p>
          <div className="perio-enrol-actions">
            <button
              type="button"
              className="ui-button"
              data-variant="secondary"
              onClick={enrol.redo}
              disabled={enrol.step === 0}
              data-testid="perio-enrol-redo"
            >
              {t("enrol.redo")}
            </button>
            {cancel}
          </div>
        </>
      ) : null}
      {enrol.phase === "saving" ? <p role="status">{t("enrol.saving")}</p> : null}
      {enrol.phase === "done" ? (
        <>
          <p role="status" className="perio-enrol-done" data-testid="perio-enrol-done">
            <Icon name="check" className="shrink-0" /> {t("enrol.saved")}
          </p>
          <div className="perio-enrol-actions">
            <Dialog.Close className="ui-button" data-testid="perio-enrol-close">
              {t("enrol.close")}
            </Dialog.Close>
          </div>
        </>
      ) : null}
    </div>
  );
}
