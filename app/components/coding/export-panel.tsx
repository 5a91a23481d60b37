import { useState } from "react";
import { useTranslation } from "react-i18next";
import { codingApi } from "./api.ts";

/** CSV and FHIR R4 export of a coded case, shown, copyable and downloadable (POST …/export). */
export function ExportPanel({
  orgId,
  caseId,
  onExported,
  onError,
}: {
  orgId: string;
  caseId: string;
  onExported: () => void;
  onError: (code: string) => void;
}) {
  const { t } = useTranslation("coding");
  const [file, setFile] = useState<{ format: "csv" | "fhir"; text: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const run = async (format: "csv" | "fhir") => {
    const res = await codingApi<string>(orgId, `/api/coding/cases/${caseId}/export?format=${format}`, { method: "POST" });
    if (!res.ok) return onError(res.code);
    setFile({ format, text: typeof res.body === "string" ? res.body : JSON.stringify(res.body, null, 2) });
    setCopied(false);
    onExported();
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(file?.text ?? "");
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const href = file
    ? `data:${file.format === "csv" ? "text/csv" : "application/fhir+json"};charset=utf-8,${encodeURIComponent(file.text)}`
    : "";
  return (
    <section className="coding-export" aria-label={t("export.title")}>
      <div className="coding-actions">
        <button type="button" className="secondary" onClick={() => void run("csv")} data-testid="coding-export-csv">
          {t("export.csv")}
        </button>
        <button type="button" className="secondary" onClick={() => void run("fhir")} data-testid="coding-export-fhir">
          {t("export.fhir")}
        </button>
      </div>
      {file ? (
        <>
          <textarea
            readOnly
            rows={6}
            aria-label={t("export.output")}
            value={file.text}
            data-testid="coding-export-output"
            data-format={file.format}
          />
          <div className="coding-actions">
            <button type="button" className="secondary outline" onClick={() => void copy()}>
              {t("export.copy")}
            </button>
            <a className="secondary outline" href={href} download={`coding-${caseId}.${file.format === "csv" ? "csv" : "json"}`}>
              {t("export.download")}
            </a>
            {copied ? <small role="status">{t("export.copied")}</small> : null}
          </div>
        </>
      ) : null}
    </section>
  );
}
