import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useRevalidator } from "react-router";
import type { VisitStatus } from "#app/db/schema.ts";
import { localizePath } from "#app/i18n/config.ts";
import { useLocale } from "#app/i18n/use-locale.ts";

export interface RealAudioRunView {
  visitId: string;
  status: VisitStatus;
  failure: { code: string; reason: string | null } | null;
  transcript: string | null;
  wer: { rate: number; errors: number; words: number } | null;
}

const FINAL: readonly VisitStatus[] = ["transcribed", "failed"];

/** The run's state; reloads the page's data every 2 s until the visit is transcribed or failed. */
export function RealAudioResult({ run }: { run: RealAudioRunView }) {
  const { t } = useTranslation("app");
  const locale = useLocale();
  const revalidator = useRevalidator();
  const waiting = !FINAL.includes(run.status);
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 2000);
    return () => clearInterval(timer);
  }, [waiting, revalidator]);
  return (
    <section aria-live="polite" data-status={run.status}>
      <p>
        {t("diagnostics.realAudio.running", { status: t(`visits.status.${run.status}`) })}
        {waiting ? <progress aria-label={t(`visits.status.${run.status}`)} /> : null}
      </p>
      {run.failure ? (
        <p role="alert" data-code={run.failure.code}>
          {t("diagnostics.realAudio.failed", { code: run.failure.code, reason: run.failure.reason ?? "" })}
        </p>
      ) : null}
      {run.transcript !== null ? (
        <>
          <h2>{t("diagnostics.realAudio.transcript")}</h2>
          <blockquote data-testid="real-audio-transcript">{run.transcript || t("diagnostics.realAudio.empty")}</blockquote>
        </>
      ) : null}
      {run.wer ? (
        <p data-testid="real-audio-wer">
          <strong>
            {t("diagnostics.realAudio.wer", {
              wer: new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(run.wer.rate * 100),
              errors: run.wer.errors,
              words: run.wer.words,
            })}
          </strong>
        </p>
      ) : null}
      <p>
        <Link to={`${localizePath("/transcribing", locale)}?visit_id=${run.visitId}`}>{t("diagnostics.openVisit")}</Link>
      </p>
    </section>
  );
}
