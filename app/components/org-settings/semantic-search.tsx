import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Form, useRevalidator } from "react-router";
import { StatusBadge, type Tone } from "../ui/badge.tsx";
import { Section } from "../ui/page.tsx";
import { resultFor, SettingsDone, SettingsFailure, type SettingsResult } from "./settings-feedback.tsx";

/** What the organisation page's loader gives owners (GET /api/rag/embeddings's status, dates formatted). */
export interface SemanticSearchView {
  configured: boolean;
  model: string | null;
  pgvector: boolean;
  state: "idle" | "queued" | "running" | "done" | "failed";
  done: number;
  total: number;
  error: string | null;
  updatedAt: string | null;
}

const TONES: Record<SemanticSearchView["state"], Tone> = {
  idle: "neutral",
  queued: "info",
  running: "info",
  done: "success",
  failed: "danger",
};

/** While the job works, the page refreshes itself every few seconds (with JavaScript; a reload does the same without). */
const REFRESH_MS = 5000;

/**
 * Settings → Organisation, owners only: Ask Murmur's optional dense retrieval (issue 12, ADR 0020
 * and 0027) — whether it is on, how far the re-embedding job is, its last error, and the button
 * that starts it or resumes it where it stopped.
 */
export function SemanticSearch({ status, result }: { status: SemanticSearchView; result?: SettingsResult }) {
  const { t } = useTranslation("orgSettings");
  const revalidator = useRevalidator();
  const working = status.state === "queued" || status.state === "running";
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [working, revalidator]);

  const own = resultFor(result, "reembed");
  const missing = status.total - status.done;
  // Hidden while the job works: a second start would coalesce with it anyway, and a job lost in a
  // crash is queued again by the per-minute sweep (ADR 0020).
  const canStart = status.configured && !working && (missing > 0 || status.state === "failed");
  const label = status.state === "idle" || status.done === 0 ? "start" : "resume";
  return (
    <Section id="org-semantic-search" title={t("semanticSearch.heading")} description={t("semanticSearch.body")}>
      <div data-testid="semantic-search" data-state={status.state} className="semantic-search">
        {status.configured ? (
          <>
            <p className="org-plan-line">
              <StatusBadge tone={TONES[status.state]} testId="semantic-search-state">
                {t(`semanticSearch.states.${status.state}`)}
              </StatusBadge>
              <span data-testid="semantic-search-progress">
                {t("semanticSearch.progress", { done: status.done, total: status.total })}
              </span>
            </p>
            <progress
              max={Math.max(status.total, 1)}
              value={status.total === 0 ? 1 : status.done}
              aria-label={t("semanticSearch.progressLabel")}
            />
            <dl className="org-settings-values">
              <div>
                <dt>{t("semanticSearch.model")}</dt>
                <dd>{status.model}</dd>
              </div>
              <div>
                <dt>{t("semanticSearch.storage")}</dt>
                <dd data-pgvector={status.pgvector}>
                  {t(status.pgvector ? "semanticSearch.pgvector" : "semanticSearch.noPgvector")}
                </dd>
              </div>
              {status.updatedAt ? (
                <div>
                  <dt>{t("semanticSearch.updated")}</dt>
                  <dd>{status.updatedAt}</dd>
                </div>
              ) : null}
            </dl>
            {status.error ? (
              <p role="alert" className="form-failure" data-testid="semantic-search-error">
                {t("semanticSearch.lastError", { error: status.error })}
              </p>
            ) : null}
          </>
        ) : (
          <p data-testid="semantic-search-off">{t("semanticSearch.off")}</p>
        )}
        <SettingsFailure failure={own?.failure} />
        {own?.done ? <SettingsDone message={t("semanticSearch.queued")} /> : null}
        {canStart ? (
          <Form method="post">
            <input type="hidden" name="intent" value="reembed" />
            <button type="submit" className="ui-button" data-variant="secondary" data-testid="semantic-search-start">
              {t(`semanticSearch.${label}`)}
            </button>
          </Form>
        ) : null}
      </div>
    </Section>
  );
}
