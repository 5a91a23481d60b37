import { useCallback, useRef, useState } from "react";
import type { PerioChange } from "#app/services/perio/changes.ts";
import { applyChanges } from "#app/services/perio/changes.ts";
import type { RiskFactors } from "#app/services/perio/classification.ts";
import type { ConfirmedClassification, PerioExam } from "#app/services/perio/exams.server.ts";
import type { ApiTooth, PerioChartData } from "#app/services/perio/model.ts";

// The open exam in the browser: local edits apply at once (the chart, summary and proposal follow
// without waiting), and are saved in order with the version last read. A 409 means someone else
// saved in between: their values replace ours and the user is told (issue 14 "Autosave").

export type SaveState = "saved" | "saving" | "conflict" | "error";

export function chartOf(teeth: ApiTooth[]): PerioChartData {
  const out: PerioChartData = { teeth: {} };
  for (const { tooth, fdi: _fdi, sites, ...rest } of teeth) {
    const plain = {} as PerioChartData["teeth"][string]["sites"];
    for (const [k, { cal: _cal, ...s }] of Object.entries(sites)) plain[k as keyof typeof plain] = s;
    out.teeth[String(tooth)] = { ...rest, sites: plain };
  }
  return out;
}

type Patch = { changes?: PerioChange[]; risk?: RiskFactors; confirmed?: Omit<ConfirmedClassification, "overridden"> | null };

export function usePerioExam(initial: PerioExam, orgId: string) {
  const [chart, setChartState] = useState<PerioChartData>(() => chartOf(initial.teeth));
  // Keys arrive faster than renders: edits apply to the latest chart, not the last rendered one.
  const chartRef = useRef(chart);
  const setChart = useCallback((next: PerioChartData) => {
    chartRef.current = next;
    setChartState(next);
  }, []);
  const [risk, setRisk] = useState<RiskFactors>(initial.classification.risk);
  const [confirmed, setConfirmed] = useState(initial.classification.confirmed);
  const [state, setState] = useState<SaveState>("saved");
  const [errorCode, setErrorCode] = useState<string | null>(null);
  const version = useRef(initial.version);
  const queue = useRef<Patch[]>([]);
  const busy = useRef(false);

  const adopt = useCallback(
    (exam: PerioExam) => {
      version.current = exam.version;
      setChart(chartOf(exam.teeth));
      setRisk(exam.classification.risk);
      setConfirmed(exam.classification.confirmed);
    },
    [setChart],
  );

  const flush = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      while (queue.current.length > 0) {
        const batch = queue.current.splice(0);
        const changes = batch.flatMap((p) => p.changes ?? []);
        const last = <K extends keyof Patch>(k: K) =>
          batch.reduce<Patch[K] | undefined>((v, p) => (k in p ? p[k] : v), undefined);
        const body: Record<string, unknown> = { version: version.current };
        if (changes.length) body.changes = changes;
        const r = last("risk");
        if (r !== undefined) body.risk = r;
        const c = batch.some((p) => "confirmed" in p) ? last("confirmed") : undefined;
        if (batch.some((p) => "confirmed" in p)) body.confirmed = c ?? null;
        setState("saving");
        const res = await fetch(`/api/perio-exams/${initial.id}`, {
          method: "PATCH",
          headers: { "content-type": "application/json", "x-org-id": orgId },
          body: JSON.stringify(body),
        });
        const answer = (await res.json()) as PerioExam & { code?: string; current?: PerioExam };
        if (res.ok) {
          version.current = answer.version;
          setConfirmed(answer.classification.confirmed);
          if (queue.current.length === 0) setState("saved");
        } else if (res.status === 409 && answer.current) {
          queue.current = [];
          adopt(answer.current);
          setState("conflict");
          return;
        } else {
          queue.current = [];
          setErrorCode(answer.code ?? "save_failed");
          setState("error");
          return;
        }
      }
    } catch {
      setErrorCode("save_failed");
      setState("error");
    } finally {
      busy.current = false;
    }
  }, [adopt, initial.id, orgId]);

  /** Applies changes locally (refused ones report their code and change nothing) and saves them. */
  const edit = useCallback(
    (changes: PerioChange[]): boolean => {
      const r = applyChanges(chartRef.current, changes);
      if (!r.ok) {
        setErrorCode(r.errors[0]?.code ?? "invalid_changes");
        return false;
      }
      setChart(r.chart);
      setErrorCode(null);
      queue.current.push({ changes });
      void flush();
      return true;
    },
    [flush, setChart],
  );

  const saveRisk = useCallback(
    (next: RiskFactors) => {
      setRisk(next);
      queue.current.push({ risk: next });
      void flush();
    },
    [flush],
  );

  const confirm = useCallback(
    (value: Omit<ConfirmedClassification, "overridden"> | null) => {
      queue.current.push({ confirmed: value });
      void flush();
    },
    [flush],
  );

  return { chart, chartRef, risk, confirmed, state, errorCode, edit, saveRisk, confirm, clearError: () => setErrorCode(null) };
}
