import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { EmptyState, Section, Toolbar } from "#app/components/ui/page.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { chartWarnings } from "#app/services/perio/changes.ts";
import { classify } from "#app/services/perio/classification.ts";
import type { PerioComparison, PerioExam, PerioExamListItem } from "#app/services/perio/exams.server.ts";
import type { PathName } from "#app/services/perio/path.ts";
import { summarize } from "#app/services/perio/summary.ts";
import { type Numbering, toothLabel } from "#app/services/perio/teeth.ts";
import { PerioGrid, type VoiceTarget } from "./perio-grid.tsx";
import { ClassificationPanel, ComparePanel, SummaryPanel } from "./perio-panels.tsx";
import { PatientCopy, PrintButtons } from "./perio-print.tsx";
import { PerioVoicePanel } from "./perio-voice-panel.tsx";
import { usePerioExam } from "./use-perio-exam.ts";

const NUMBERING_KEY = "murmur.perio.numbering";

/** The user's numbering (issue 14: switchable per user), kept in this browser. */
function useNumbering(fallback: Numbering): [Numbering, (n: Numbering) => void] {
  const [numbering, setNumbering] = useState<Numbering>(fallback);
  useEffect(() => {
    const saved = window.localStorage.getItem(NUMBERING_KEY);
    if (saved === "fdi" || saved === "universal") setNumbering(saved);
  }, []);
  return [
    numbering,
    (n) => {
      window.localStorage.setItem(NUMBERING_KEY, n);
      setNumbering(n);
    },
  ];
}

type Props = {
  orgId: string;
  userId: string;
  patient: { id: string; display_name: string };
  exams: PerioExamListItem[];
  exam: PerioExam | null;
  defaultNumbering: Numbering;
  today: string;
  error?: string;
};

export function PerioExamView({ orgId, userId, patient, exams, exam, defaultNumbering, today, error }: Props) {
  const { t } = useTranslation("perio");
  const to = useLocalizedPath();
  const [numbering, setNumbering] = useNumbering(defaultNumbering);
  const base = `${to("/periodontal-chart")}?patient_id=${patient.id}`;
  return (
    <>
      <Section title={patient.display_name} testId="perio-exams">
        <Toolbar>
          <nav aria-label={t("exams.list")} className="perio-exam-list">
            {exams.map((e) => (
              <Link
                key={e.id}
                to={`${base}&exam=${e.id}`}
                aria-current={e.id === exam?.id ? "page" : undefined}
                className="ui-button"
                data-variant={e.id === exam?.id ? undefined : "ghost"}
              >
                {e.exam_date}
              </Link>
            ))}
          </nav>
          <Form method="post" className="perio-new-exam">
            <input type="hidden" name="patient_id" value={patient.id} />
            <label>
              {t("exams.date")}
              <input type="date" name="exam_date" defaultValue={today} />
            </label>
            {exams.length > 0 ? (
              <label className="perio-check">
                <input type="checkbox" name="copy_forward" defaultChecked /> {t("exams.copy_forward")}
              </label>
            ) : null}
            <button type="submit" className="ui-button" data-testid="perio-new-exam">
              {t("exams.new")}
            </button>
          </Form>
          <fieldset className="ui-segmented">
            <legend className="sr-only">{t("numbering.label")}</legend>
            {(["universal", "fdi"] as const).map((n) => (
              <button
                key={n}
                type="button"
                aria-pressed={numbering === n}
                onClick={() => setNumbering(n)}
                data-testid={`numbering-${n}`}
              >
                {t(`numbering.${n}`)}
              </button>
            ))}
          </fieldset>
        </Toolbar>
        {error ? <p role="alert">{t(`errors.${error}`, { defaultValue: t("errors.save_failed") })}</p> : null}
      </Section>
      {exam ? (
        <OpenExam
          orgId={orgId}
          userId={userId}
          patientName={patient.display_name}
          exam={exam}
          others={exams.filter((e) => e.id !== exam.id)}
          numbering={numbering}
        />
      ) : (
        <EmptyState title={t("exams.none")} />
      )}
    </>
  );
}

function OpenExam({
  orgId,
  userId,
  patientName,
  exam,
  others,
  numbering,
}: {
  orgId: string;
  userId: string;
  patientName: string;
  exam: PerioExam;
  others: PerioExamListItem[];
  numbering: Numbering;
}) {
  const { t } = useTranslation("perio");
  const live = usePerioExam(exam, orgId);
  const [pathName, setPathName] = useState<PathName>("standard");
  const [comparison, setComparison] = useState<PerioComparison | null>(null);
  const gridRef = useRef<VoiceTarget>(null);
  const summary = useMemo(() => summarize(live.chart), [live.chart]);
  const proposed = useMemo(() => classify(live.chart, live.risk), [live.chart, live.risk]);
  const warnings = useMemo(() => chartWarnings(live.chart), [live.chart]);
  const highlights = useMemo(() => {
    const m = new Map<string, "worse" | "better">();
    for (const s of comparison?.sites ?? [])
      if (s.status === "worse" || s.status === "better") m.set(`${s.tooth}${s.site}`, s.status);
    return m;
  }, [comparison]);
  return (
    <div className="perio-printable">
      <PatientCopy patientName={patientName} date={exam.exam_date} summary={summary} />
      <Section
        title={t("chart.title", { date: exam.exam_date })}
        description={t("chart.gm_convention")}
        testId="perio-chart"
        actions={
          <>
            <PrintButtons examId={exam.id} orgId={orgId} numbering={numbering} />
            <span className="perio-save perio-no-print" data-state={live.state} data-testid="perio-save-state" aria-live="polite">
              {t(`save.${live.state}`)}
            </span>
          </>
        }
      >
        <div className="perio-no-print">
          <Toolbar>
            <label>
              {t("chart.path")}
              <select value={pathName} onChange={(e) => setPathName(e.target.value as PathName)}>
                <option value="standard">{t("chart.path_standard")}</option>
                <option value="lingual_first">{t("chart.path_lingual_first")}</option>
              </select>
            </label>
            <p className="perio-voice-note">{t("chart.voice_languages")}</p>
          </Toolbar>
          <PerioVoicePanel onCommand={(cmd) => gridRef.current?.command(cmd) ?? null} userId={userId} />
        </div>
        {live.state === "conflict" ? <p role="alert">{t("errors.version_conflict")}</p> : null}
        {live.errorCode ? (
          <p role="alert" data-testid="perio-error">
            {t(`errors.${live.errorCode}`, { defaultValue: t("errors.save_failed") })}
          </p>
        ) : null}
        <PerioGrid
          chart={live.chart}
          chartRef={live.chartRef}
          numbering={numbering}
          pathName={pathName}
          onEdit={live.edit}
          highlights={highlights}
          voiceRef={gridRef}
        />
        {warnings.length > 0 ? (
          <ul className="perio-warnings" data-testid="perio-warnings">
            {warnings.map((w) => (
              <li key={`${w.code}${w.tooth}${w.site ?? ""}`}>
                {t(`warnings.${w.code}`, { tooth: toothLabel(w.tooth, numbering), site: w.site ? t(`sites.${w.site}`) : "" })}
              </li>
            ))}
          </ul>
        ) : null}
      </Section>
      <div className="perio-panels perio-clinic-only">
        <SummaryPanel summary={summary} />
        <ClassificationPanel
          proposed={proposed}
          risk={live.risk}
          confirmed={live.confirmed}
          onRisk={live.saveRisk}
          onConfirm={live.confirm}
        />
        <ComparePanel examId={exam.id} orgId={orgId} others={others} numbering={numbering} onResult={setComparison} />
      </div>
    </div>
  );
}
