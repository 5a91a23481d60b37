import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { StatusBadge } from "#app/components/ui/badge.tsx";
import type { CasePatch, CodingCaseView, LineOperation } from "#app/services/coding/cases/types.ts";
import { codingApi } from "./api.ts";
import { CodeSearch } from "./code-search.tsx";
import { CodingLine } from "./coding-line.tsx";
import { EvidenceText } from "./evidence-text.tsx";
import { ExportPanel } from "./export-panel.tsx";

const STATUS_TONE = { open: "warning", coded: "info", exported: "success" } as const;

/**
 * The coding panel beside a signed note (issue 13): opens (or reloads) the visit's coding case,
 * lists the suggestions with their evidence highlighted in the note text, and lets the coder
 * accept, reject with a reason, edit, add by search, mark coded and export.
 */
export function CodingPanel({ orgId, noteId }: { orgId: string; noteId: string }) {
  const { t } = useTranslation("coding");
  const [kase, setCase] = useState<CodingCaseView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [showBelow, setShowBelow] = useState(false);

  useEffect(() => {
    let live = true;
    void codingApi<CodingCaseView>(orgId, `/api/notes/${noteId}/coding`, { method: "POST" }).then((res) => {
      if (!live) return;
      if (res.ok) setCase(res.body);
      else setError(res.code);
    });
    return () => {
      live = false;
    };
  }, [orgId, noteId]);

  const patch = useCallback(
    async (body: CasePatch) => {
      if (!kase) return;
      setBusy(true);
      const res = await codingApi<CodingCaseView>(orgId, `/api/coding/cases/${kase.id}`, { method: "PATCH", json: body });
      setBusy(false);
      if (res.ok) {
        setCase(res.body);
        setError(null);
      } else setError(res.code);
    },
    [kase, orgId],
  );
  const operate = (op: LineOperation) => void patch({ operations: [op] });
  const reload = async () => {
    if (!kase) return;
    const res = await codingApi<CodingCaseView>(orgId, `/api/coding/cases/${kase.id}`);
    if (res.ok) setCase(res.body);
  };

  if (!kase) {
    return (
      <section className="coding-panel" aria-label={t("panel.title")} data-testid="coding-panel">
        <h3>{t("panel.title")}</h3>
        {error ? <ErrorLine code={error} /> : <p aria-busy="true">{t("panel.loading")}</p>}
      </section>
    );
  }
  const selectedLine = kase.lines.find((l) => l.id === selected) ?? null;
  const suggestionOf = (code: string) => kase.suggestions.find((s) => s.code === code);
  const exported = kase.status === "exported";
  // Few codes first (ADR 43): an engine suggestion still undecided and below the confidence cut-off
  // waits behind "show more"; decided, edited and hand-added lines are always shown.
  const below = (line: (typeof kase.lines)[number]) =>
    line.state === "suggested" && line.origin === "engine" && suggestionOf(line.code)?.above_cutoff === false;
  const belowCount = kase.lines.filter(below).length;
  const visible = kase.lines.filter((l) => showBelow || !below(l) || l.id === selected);
  const renderLine = (line: (typeof kase.lines)[number]) => (
    <CodingLine
      key={`${line.id}-${line.code}-${line.state}`}
      line={line}
      suggestion={suggestionOf(line.code)}
      selected={line.id === selected}
      readOnly={exported || busy}
      onSelect={() => setSelected(line.id === selected ? null : line.id)}
      onOperation={operate}
    />
  );
  return (
    <section className="coding-panel" aria-label={t("panel.title")} data-testid="coding-panel" data-case-status={kase.status}>
      <header className="coding-line-head">
        <h3>{t("panel.title")}</h3>
        <StatusBadge tone={STATUS_TONE[kase.status]} testId="coding-status">
          {t(`status.${kase.status}`)}
        </StatusBadge>
      </header>
      {kase.reopened_at && kase.status === "open" ? (
        <p role="status" className="coding-flag">
          {t("panel.reopened")}
        </p>
      ) : null}
      {error ? <ErrorLine code={error} /> : null}
      {kase.lines.length === 0 ? <p>{t("panel.empty")}</p> : null}
      <ul className="coding-lines" aria-busy={busy} id={`coding-lines-${kase.id}`}>
        {visible.map(renderLine)}
      </ul>
      {belowCount > 0 ? (
        <div className="coding-more">
          <button
            type="button"
            className="secondary outline"
            aria-expanded={showBelow}
            aria-controls={`coding-lines-${kase.id}`}
            onClick={() => setShowBelow(!showBelow)}
            data-testid="coding-show-more"
          >
            {showBelow ? t("cutoff.showLess") : t("cutoff.showMore", { count: belowCount })}
          </button>
          {showBelow ? <small>{t("cutoff.belowHint")}</small> : null}
        </div>
      ) : null}
      <details open={selectedLine !== null}>
        <summary>{t("panel.evidence")}</summary>
        <small>{t("panel.evidenceHint")}</small>
        <EvidenceText text={kase.source_text} evidence={selectedLine?.evidence ?? []} />
      </details>
      {exported ? null : (
        <CodeSearch orgId={orgId} disabled={busy} onAdd={(system, code) => operate({ op: "add", system, code })} />
      )}
      <div className="coding-actions">
        {kase.status === "open" ? (
          <button type="button" disabled={busy} onClick={() => void patch({ status: "coded" })} data-testid="coding-mark-coded">
            {t("actions.markCoded")}
          </button>
        ) : (
          <button type="button" className="secondary outline" disabled={busy} onClick={() => void patch({ status: "open" })}>
            {t("actions.reopen")}
          </button>
        )}
      </div>
      {kase.status !== "open" ? (
        <ExportPanel orgId={orgId} caseId={kase.id} onExported={() => void reload()} onError={setError} />
      ) : null}
      <small className="coding-meta">{t("panel.codeSets", { icd: "FY2026", hcpcs: "2019-01" })}</small>
    </section>
  );
}

function ErrorLine({ code }: { code: string }) {
  const { t } = useTranslation("coding");
  return (
    <p role="alert" data-code={code}>
      {t(`errors.${code}`, { defaultValue: t("errors.other") })}
    </p>
  );
}
