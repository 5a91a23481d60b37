import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { DataTable } from "#app/components/ui/data-table.tsx";
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
  return (
    <DataTable
      caption={t("speechEngines.caption")}
      rowKey={(row) => row.id}
      rows={engines}
      empty={<p>{t("speechEngines.none")}</p>}
      labels={{ previous: "", next: "", page: () => "" }}
      columns={[
        { key: "engine", header: t("speechEngines.engine"), cell: (row) => <span data-engine={row.id}>{row.id}</span> },
        { key: "languages", header: t("speechEngines.languages"), cell: (row) => row.languages.join(", ") },
        {
          key: "model",
          header: t("speechEngines.model"),
          cell: (row) =>
            row.refusal ? (
              <span role="alert" data-code={row.refusal.code}>
                {t(`speechEngines.refused.${row.refusal.code}`, { defaultValue: t("speechEngines.refused.other") })}{" "}
                <small>{row.refusal.reason}</small>
              </span>
            ) : (
              <code>{row.model ?? t("speechEngines.modelPending")}</code>
            ),
        },
        {
          key: "wer",
          header: t("speechEngines.sampleWer"),
          align: "end",
          cell: (row) =>
            row.sampleWer?.state === "done" ? (
              <span data-testid={`wer-${row.id}`}>{percent.format(row.sampleWer.wer)}</span>
            ) : row.sampleWer?.state === "measuring" ? (
              t("speechEngines.measuring")
            ) : row.sampleWer?.state === "failed" ? (
              t("speechEngines.measureFailed", { code: row.sampleWer.code })
            ) : (
              t("speechEngines.notMeasured")
            ),
        },
      ]}
    />
  );
}
