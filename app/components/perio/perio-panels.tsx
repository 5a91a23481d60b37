import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { StatusBadge } from "#app/components/ui/badge.tsx";
import { Section } from "#app/components/ui/page.tsx";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { Classification, Extent, Grade, RiskFactors, Stage } from "#app/services/perio/classification.ts";
import { stageName } from "#app/services/perio/classification.ts";
import type { ConfirmedClassification, PerioComparison, PerioExamListItem } from "#app/services/perio/exams.server.ts";
import type { PerioSummary } from "#app/services/perio/summary.ts";
import { type Numbering, toothLabel } from "#app/services/perio/teeth.ts";

export function SummaryPanel({ summary }: { summary: PerioSummary }) {
  const { t } = useTranslation("perio");
  const locale = useLocale();
  // The reader's number style: 4.7 in English, 4,7 and "3,2 %" in French and Spanish.
  const n = (v: number | null) => (v === null ? "–" : new Intl.NumberFormat(locale).format(v));
  const pct = (v: number) => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(v / 100);
  const items: [string, string][] = [
    ["teeth_present", String(summary.teethPresent)],
    ["sites_measured", String(summary.sitesMeasured)],
    ["bop", summary.bopPercent === null ? "–" : `${summary.bopSites} (${pct(summary.bopPercent)})`],
    ["plaque", summary.plaquePercent === null ? "–" : `${summary.plaqueSites} (${pct(summary.plaquePercent)})`],
    ["pd4", String(summary.pd4)],
    ["pd5", String(summary.pd5)],
    ["pd6", String(summary.pd6)],
    ["mean_pd", n(summary.meanPd)],
    ["mean_cal", n(summary.meanCal)],
  ];
  return (
    <Section title={t("summary.title")} testId="perio-summary">
      <dl className="perio-summary">
        {items.map(([k, v]) => (
          <div key={k} data-testid={`summary-${k}`}>
            <dt>{t(`summary.${k}`)}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

const STAGES: Stage[] = [1, 2, 3, 4];
const EXTENTS: Extent[] = ["localised", "generalised", "molar_incisor"];
const GRADES: Grade[] = ["A", "B", "C"];

export function ClassificationPanel({
  proposed,
  risk,
  confirmed,
  onRisk,
  onConfirm,
}: {
  proposed: Classification;
  risk: RiskFactors;
  confirmed: ConfirmedClassification | null;
  onRisk: (risk: RiskFactors) => void;
  onConfirm: (value: Omit<ConfirmedClassification, "overridden">) => void;
}) {
  const { t } = useTranslation("perio");
  const [stage, setStage] = useState<Stage | null>(confirmed?.stage ?? proposed.stage);
  const [extent, setExtent] = useState<Extent | null>(confirmed?.extent ?? proposed.extent);
  const [grade, setGrade] = useState<Grade | null>(confirmed?.grade ?? proposed.grade);
  useEffect(() => {
    if (confirmed) return;
    setStage(proposed.stage);
    setExtent(proposed.extent);
    setGrade(proposed.grade);
  }, [confirmed, proposed.stage, proposed.extent, proposed.grade]);
  const num = (v: string) => (v.trim() === "" ? null : Number(v));
  const headline =
    proposed.periodontitis === null
      ? t("classification.no_data")
      : proposed.periodontitis === false
        ? t("classification.no_periodontitis")
        : t("classification.proposal", {
            stage: stageName(proposed.stage as Stage),
            extent: t(`extent.${proposed.extent}`),
            grade: proposed.grade,
          });
  return (
    <Section title={t("classification.title")} description={t("classification.description")} testId="perio-classification">
      <p data-testid="perio-proposal">
        <strong>{headline}</strong>
      </p>
      <ul className="perio-rationale">
        {proposed.rationale.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the rationale is an ordered list of steps
          <li key={i}>{t(`rationale.${r.code}`, r.values ?? {})}</li>
        ))}
      </ul>
      <form
        className="perio-risk"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          const smoking = String(f.get("smoking") ?? "");
          onRisk({
            smoking: smoking ? (smoking as RiskFactors["smoking"]) : null,
            diabetes: f.get("diabetes") === "on",
            hba1c: num(String(f.get("hba1c") ?? "")),
            boneLossPercent: num(String(f.get("bone_loss") ?? "")),
            age: num(String(f.get("age") ?? "")),
            teethLostToPerio: num(String(f.get("teeth_lost") ?? "")),
          });
        }}
      >
        <fieldset>
          <legend>{t("risk.title")}</legend>
          <label>
            {t("risk.smoking")}
            <select name="smoking" defaultValue={risk.smoking ?? ""}>
              <option value="">{t("risk.unknown")}</option>
              {(["never", "former", "lt10", "ge10"] as const).map((s) => (
                <option key={s} value={s}>
                  {t(`risk.smoking_${s}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="perio-check">
            <input type="checkbox" name="diabetes" defaultChecked={risk.diabetes ?? false} /> {t("risk.diabetes")}
          </label>
          <label>
            {t("risk.hba1c")}
            <input name="hba1c" type="number" step="0.1" min="3" max="20" defaultValue={risk.hba1c ?? ""} />
          </label>
          <label>
            {t("risk.bone_loss")}
            <input name="bone_loss" type="number" min="0" max="100" defaultValue={risk.boneLossPercent ?? ""} />
          </label>
          <label>
            {t("risk.age")}
            <input name="age" type="number" min="1" max="130" defaultValue={risk.age ?? ""} />
          </label>
          <label>
            {t("risk.teeth_lost")}
            <input name="teeth_lost" type="number" min="0" max="32" defaultValue={risk.teethLostToPerio ?? ""} />
          </label>
        </fieldset>
        <button type="submit" className="ui-button" data-variant="secondary">
          {t("risk.save")}
        </button>
      </form>
      <form
        className="perio-confirm"
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm({ stage, extent, grade });
        }}
      >
        <label>
          {t("classification.stage")}
          <select value={stage ?? ""} onChange={(e) => setStage(e.target.value ? (Number(e.target.value) as Stage) : null)}>
            <option value="">–</option>
            {STAGES.map((s) => (
              <option key={s} value={s}>
                {stageName(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("classification.extent")}
          <select value={extent ?? ""} onChange={(e) => setExtent((e.target.value || null) as Extent | null)}>
            <option value="">–</option>
            {EXTENTS.map((x) => (
              <option key={x} value={x}>
                {t(`extent.${x}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("classification.grade")}
          <select value={grade ?? ""} onChange={(e) => setGrade((e.target.value || null) as Grade | null)}>
            <option value="">–</option>
            {GRADES.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="ui-button" data-testid="perio-confirm">
          {t("classification.confirm")}
        </button>
      </form>
      {confirmed ? (
        <p data-testid="perio-confirmed">
          <StatusBadge tone={confirmed.overridden ? "warning" : "success"}>
            {t(confirmed.overridden ? "classification.overridden" : "classification.confirmed")}
          </StatusBadge>{" "}
          {confirmed.stage ? `${t("classification.stage")} ${stageName(confirmed.stage)}` : ""}
          {confirmed.extent ? `, ${t(`extent.${confirmed.extent}`)}` : ""}
          {confirmed.grade ? `, ${t("classification.grade")} ${confirmed.grade}` : ""}
        </p>
      ) : null}
    </Section>
  );
}

export function ComparePanel({
  examId,
  orgId,
  others,
  numbering,
  onResult,
}: {
  examId: string;
  orgId: string;
  others: PerioExamListItem[];
  numbering: Numbering;
  onResult: (c: PerioComparison | null) => void;
}) {
  const { t } = useTranslation("perio");
  const [result, setResult] = useState<PerioComparison | null>(null);
  const [failed, setFailed] = useState(false);
  if (others.length === 0) return null;
  const load = async (withId: string) => {
    setFailed(false);
    if (!withId) {
      setResult(null);
      onResult(null);
      return;
    }
    const res = await fetch(`/api/perio-exams/${examId}/compare?with=${withId}`, { headers: { "x-org-id": orgId } });
    if (!res.ok) {
      setFailed(true);
      return;
    }
    const c = (await res.json()) as PerioComparison;
    setResult(c);
    onResult(c);
  };
  const changed = result?.sites.filter((s) => s.status === "worse" || s.status === "better") ?? [];
  return (
    <Section title={t("compare.title")} testId="perio-compare">
      <label>
        {t("compare.with")}
        <select defaultValue="" onChange={(e) => void load(e.target.value)} data-testid="perio-compare-select">
          <option value="">–</option>
          {others.map((e) => (
            <option key={e.id} value={e.id}>
              {e.exam_date}
            </option>
          ))}
        </select>
      </label>
      {failed ? <p role="alert">{t("errors.compare_failed")}</p> : null}
      {result ? (
        <>
          <p data-testid="perio-compare-counts">
            {t("compare.counts", { worse: result.worse, better: result.better, stable: result.stable })}
          </p>
          <ul className="perio-changes">
            {changed.map((s) => (
              <li key={`${s.tooth}${s.site}`} data-change={s.status}>
                {t(`compare.${s.status}`, {
                  tooth: toothLabel(s.tooth, numbering),
                  site: t(`sites.${s.site}`),
                  delta: Math.abs(s.calDelta ?? s.pdDelta ?? 0),
                })}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Section>
  );
}
