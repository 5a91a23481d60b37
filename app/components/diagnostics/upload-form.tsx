import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher } from "react-router";
import { localizePath } from "#app/i18n/config.ts";
import { useLocale } from "#app/i18n/use-locale.ts";
import {
  DIAGNOSTIC_ACCEPT,
  type DiagnosticFileProblem,
  diagnosticContentType,
  diagnosticFileProblem,
} from "#app/services/diagnostics/upload-files.ts";

const LANGUAGES = ["en", "fr", "es"] as const;

type Phase =
  | { name: "idle" }
  | { name: "creating" }
  | { name: "uploading"; percent: number }
  | { name: "done"; visitId: string }
  | { name: "failed"; code: string };

type CreateAnswer = { visitId: string; orgId: string } | { failure: { code: string } };

/**
 * /test-upload's tool: the page's action creates the diagnostic visit, then the file goes to
 * POST /api/visits/:id/audio. XMLHttpRequest rather than fetch: only it reports upload progress
 * in every browser (fetch's request streams need HTTP/2 and report nothing).
 */
export function DiagnosticUploadForm({ orgName }: { orgName: string }) {
  const { t } = useTranslation("app");
  const locale = useLocale();
  const fetcher = useFetcher<CreateAnswer>();
  const [phase, setPhase] = useState<Phase>({ name: "idle" });
  const [problem, setProblem] = useState<DiagnosticFileProblem | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const started = useRef<string | null>(null);

  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== "idle") return;
    if ("failure" in answer) {
      setPhase({ name: "failed", code: answer.failure.code });
      return;
    }
    const file = fileRef.current?.files?.[0];
    if (!file || started.current === answer.visitId) return;
    started.current = answer.visitId;
    setPhase({ name: "uploading", percent: 0 });
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/visits/${answer.visitId}/audio`);
    xhr.setRequestHeader("content-type", diagnosticContentType(file.name) ?? "application/octet-stream");
    xhr.setRequestHeader("x-org-id", answer.orgId);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) setPhase({ name: "uploading", percent: Math.floor((event.loaded / event.total) * 100) });
    };
    xhr.onload = () => {
      if (xhr.status === 200) {
        setPhase({ name: "done", visitId: answer.visitId });
        return;
      }
      let code = "unexpected";
      try {
        code = (JSON.parse(xhr.responseText) as { code?: string }).code ?? code;
      } catch {
        // not JSON: a proxy's page
      }
      setPhase({ name: "failed", code: xhr.status === 401 ? "sign_in_required" : code });
    };
    xhr.onerror = () => setPhase({ name: "failed", code: "network" });
    xhr.send(file);
  }, [fetcher.data, fetcher.state]);

  const busy = phase.name === "creating" || phase.name === "uploading" || fetcher.state !== "idle";

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = fileRef.current?.files?.[0];
    const found = file ? diagnosticFileProblem(file) : "type";
    setProblem(found);
    if (found) return;
    const form = new FormData(event.currentTarget);
    started.current = null;
    setPhase({ name: "creating" });
    fetcher.submit({ intent: "create", language: String(form.get("language") ?? "en") }, { method: "post" });
  }

  return (
    <form method="post" onSubmit={onSubmit} data-testid="diagnostic-upload" className="ui-form">
      <p>{t("diagnostics.org", { org: orgName })}</p>
      <label>
        {t("diagnostics.upload.file")}
        <input
          ref={fileRef}
          type="file"
          name="file"
          accept={DIAGNOSTIC_ACCEPT}
          required
          aria-invalid={problem ? true : undefined}
          aria-describedby="diagnostic-file-hint"
          onChange={() => setProblem(null)}
        />
        <small id="diagnostic-file-hint">{problem ? t(`diagnostics.problems.${problem}`) : t("diagnostics.upload.hint")}</small>
      </label>
      <label>
        {t("diagnostics.language")}
        <select name="language" defaultValue={locale}>
          {LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {t(`visits.languages.${language}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="ui-button" aria-busy={busy || undefined} disabled={busy}>
        {t("diagnostics.upload.submit")}
      </button>
      <noscript>
        <p>{t("diagnostics.noscript")}</p>
      </noscript>
      <UploadStatus phase={phase} transcribingPath={localizePath("/transcribing", locale)} />
    </form>
  );
}

function UploadStatus({ phase, transcribingPath }: { phase: Phase; transcribingPath: string }) {
  const { t } = useTranslation("app");
  if (phase.name === "creating") return <p aria-live="polite">{t("diagnostics.upload.creating")}</p>;
  if (phase.name === "uploading") {
    return (
      <div aria-live="polite">
        <progress value={phase.percent} max={100} aria-label={t("diagnostics.upload.progress")} />
        <p>{t("diagnostics.upload.uploading", { percent: phase.percent })}</p>
      </div>
    );
  }
  if (phase.name === "done") {
    return (
      <p role="status" data-state="done">
        {t("diagnostics.upload.done")}{" "}
        <Link to={`${transcribingPath}?visit_id=${phase.visitId}`}>{t("diagnostics.openVisit")}</Link>
      </p>
    );
  }
  if (phase.name === "failed") {
    return (
      <p role="alert" className="form-failure" data-code={phase.code}>
        {t(`diagnostics.errors.${phase.code}`, { defaultValue: t("diagnostics.errors.unexpected") })}
      </p>
    );
  }
  return null;
}
