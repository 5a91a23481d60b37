import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import type { EngineReport } from "#app/services/speech/engine-report.server.ts";

/**
 * Per configured speech engine: languages, loaded model (or why a local model was refused) and
 * its word error rate on the bundled sample visit. Reloads every 5 s while a measurement runs.
 */
export function EngineReportTable({ engines }: { engines: EngineReport[] }) {
  const { t, i18n } = useTranslation("app");
  const revalidator = useRevalidator();
  const measuring = engines.some((e) => e.sampleWer?.state === "measuring");
  useEffect(() => {
    if (!measuring) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 5000);
    return () => clearInterval(timer);
  }, [measuring, revalidator]);
  const percent = new Intl.NumberFormat(i18n.language, { style: "percent", maximumFractionDigits: 1 });
  if (engines.length === 0) return <p>{t("speechEngines.none")}</p>;
  // One block per engine rather than a table: four columns of translated labels do not fit 360 px.
  return (
    <ul className="speech-engines" aria-label={t("speechEngines.caption")}>
      {engines.map((row) => (
        <li key={row.id} data-engine={row.id}>
          <h3>{row.id}</h3>
          <dl className="org-settings-values">
            <div>
              <dt>{t("speechEngines.languages")}</dt>
              <dd>{row.languages.join(", ")}</dd>
            </div>
            <div>
              <dt>{t("speechEngines.model")}</dt>
              <dd>
                {row.refusal ? (
                  <span role="alert" data-code={row.refusal.code}>
                    {t(`speechEngines.refused.${row.refusal.code}`, { defaultValue: t("speechEngines.refused.other") })}{" "}
                    <small>{row.refusal.reason}</small>
                  </span>
                ) : (
                  <code data-testid={`model-${row.id}`}>{row.model ?? t("speechEngines.modelPending")}</code>
                )}
              </dd>
            </div>
            <div>
              <dt>{t("speechEngines.sampleWer")}</dt>
              <dd>
                {row.sampleWer?.state === "done" ? (
                  <span data-testid={`wer-${row.id}`}>{percent.format(row.sampleWer.wer)}</span>
                ) : row.sampleWer?.state === "measuring" ? (
                  t("speechEngines.measuring")
                ) : row.sampleWer?.state === "failed" ? (
                  t("speechEngines.measureFailed", { code: row.sampleWer.code })
                ) : (
                  t("speechEngines.notMeasured")
                )}
              </dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}
