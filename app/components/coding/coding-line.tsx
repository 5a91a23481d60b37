import { useState } from "react";
import { useTranslation } from "react-i18next";
import { StatusBadge, type Tone } from "#app/components/ui/badge.tsx";
import type { CodingLineView, LineOperation } from "#app/services/coding/cases/types.ts";
import type { Suggestion } from "#app/services/coding/model.ts";
import { CODING_REJECT_REASONS as REASONS } from "#app/services/coding/reject-reasons.ts";

const TONE: Record<CodingLineView["state"], Tone> = { suggested: "info", accepted: "success", rejected: "neutral" };

/** One code of the case: its state, evidence button, rationale and flags, and the coder's actions. */
export function CodingLine({
  line,
  suggestion,
  selected,
  readOnly,
  onSelect,
  onOperation,
}: {
  line: CodingLineView;
  suggestion: Suggestion | undefined;
  selected: boolean;
  readOnly: boolean;
  onSelect: () => void;
  onOperation: (op: LineOperation) => void;
}) {
  const { t } = useTranslation("coding");
  const [mode, setMode] = useState<"idle" | "reject" | "edit">("idle");
  const [reason, setReason] = useState<string>(REASONS[0]);
  const [code, setCode] = useState(line.code);
  return (
    <li className="coding-line" data-state={line.state} data-selected={selected} data-testid={`coding-line-${line.code}`}>
      <div className="coding-line-head">
        <button
          type="button"
          className="coding-code"
          onClick={onSelect}
          aria-pressed={selected}
          aria-label={t("line.showEvidence", { code: line.code })}
        >
          <strong>{line.code}</strong>
        </button>
        <span className="coding-desc">{line.description}</span>
        <StatusBadge tone={TONE[line.state]} testId={`coding-state-${line.code}`}>
          {t(`state.${line.state}`)}
        </StatusBadge>
      </div>
      <small className="coding-meta">
        {line.confidence !== null ? `${t("line.confidence", { percent: Math.round(line.confidence * 100) })} · ` : ""}
        {line.origin === "manual" ? t("line.manual") : line.rationale}
        {line.suggested_code ? ` · ${t("line.edited", { code: line.suggested_code })}` : ""}
        {line.reject_reason ? ` · ${t(`reasons.${line.reject_reason}`, { defaultValue: line.reject_reason })}` : ""}
      </small>
      {suggestion?.missing?.map((m) => (
        <small key={m} className="coding-flag" role="note">
          {t(`missing.${m}`)}
        </small>
      ))}
      {suggestion?.excludes1?.length ? (
        <small className="coding-flag" role="note">
          {t("excludes1", { codes: suggestion.excludes1.join(", ") })}
        </small>
      ) : null}
      {readOnly ? null : mode === "reject" ? (
        <div className="coding-actions">
          <label>
            {t("line.reason")}
            <select value={reason} onChange={(e) => setReason(e.target.value)} data-testid={`coding-reason-${line.code}`}>
              {REASONS.map((r) => (
                <option key={r} value={r}>
                  {t(`reasons.${r}`)}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            onClick={() => onOperation({ op: "reject", line_id: line.id, reason })}
            data-testid={`coding-reject-confirm-${line.code}`}
          >
            {t("line.reject")}
          </button>
          <button type="button" className="secondary outline" onClick={() => setMode("idle")}>
            {t("line.cancel")}
          </button>
        </div>
      ) : mode === "edit" ? (
        <div className="coding-actions">
          <input aria-label={t("line.newCode")} value={code} onChange={(e) => setCode(e.target.value)} maxLength={12} />
          <button type="button" onClick={() => onOperation({ op: "edit", line_id: line.id, code })}>
            {t("line.save")}
          </button>
          <button type="button" className="secondary outline" onClick={() => setMode("idle")}>
            {t("line.cancel")}
          </button>
        </div>
      ) : (
        <div className="coding-actions">
          {line.state !== "accepted" ? (
            <button
              type="button"
              onClick={() => onOperation({ op: "accept", line_id: line.id })}
              data-testid={`coding-accept-${line.code}`}
            >
              {t("line.accept")}
            </button>
          ) : null}
          {line.state !== "rejected" ? (
            <button
              type="button"
              className="secondary outline"
              onClick={() => setMode("reject")}
              data-testid={`coding-reject-${line.code}`}
            >
              {t("line.reject")}
            </button>
          ) : null}
          <button type="button" className="secondary outline" onClick={() => setMode("edit")}>
            {t("line.edit")}
          </button>
        </div>
      )}
      {line.kind === "procedure" && !readOnly ? <ProcedureFields line={line} onOperation={onOperation} /> : null}
    </li>
  );
}

function ProcedureFields({ line, onOperation }: { line: CodingLineView; onOperation: (op: LineOperation) => void }) {
  const { t } = useTranslation("coding");
  const [units, setUnits] = useState(String(line.units));
  const [modifiers, setModifiers] = useState(line.modifiers.join(" "));
  return (
    <div className="coding-actions">
      <label>
        {t("line.units")}
        <input type="number" min={1} max={999} value={units} onChange={(e) => setUnits(e.target.value)} />
      </label>
      <label>
        {t("line.modifiers")}
        <input value={modifiers} onChange={(e) => setModifiers(e.target.value.toUpperCase())} maxLength={11} />
      </label>
      <button
        type="button"
        className="secondary outline"
        onClick={() =>
          onOperation({
            op: "update",
            line_id: line.id,
            units: Number(units) || 1,
            modifiers: modifiers.split(/\s+/).filter(Boolean),
          })
        }
      >
        {t("line.save")}
      </button>
    </div>
  );
}
