import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { TimelineEntry, TimelineNoteStatus, TimelineVisit } from "#app/services/patients/patient-record.server.ts";
import { formatCalendarDate } from "#app/utils/zoned-time.ts";
import { StatusBadge, type Tone } from "../ui/badge.tsx";
import { EmptyState } from "../ui/page.tsx";

const VISIT_TONE: Record<TimelineVisit["status"], Tone> = {
  draft: "neutral",
  recording: "info",
  uploaded: "info",
  transcribing: "info",
  transcribed: "success",
  failed: "danger",
};

// A draft is a clinical safety cue (not signed yet): warning, never a grey word.
const NOTE_TONE: Record<TimelineNoteStatus, Tone> = {
  generating: "info",
  draft: "warning",
  failed: "danger",
  signed: "success",
  amended: "success",
};

function VisitEntry({ visit }: { visit: TimelineVisit }) {
  const { t } = useTranslation("patients");
  const { t: tApp } = useTranslation("app");
  const { t: tNotes } = useTranslation("notes");
  const to = useLocalizedPath();
  const locale = useLocale();
  const target = visit.note ? `${to("/coding")}?id=${visit.note.id}` : `${to("/transcribing")}?visit_id=${visit.id}`;
  return (
    <li className="timeline-entry" data-kind="visit" data-testid="timeline-visit" data-visit-id={visit.id}>
      <time dateTime={visit.date}>{formatCalendarDate(visit.date, locale)}</time>
      <div className="timeline-body">
        <Link to={target}>{visit.title || t("record.visitUntitled")}</Link>
        <div className="timeline-badges">
          <StatusBadge tone={VISIT_TONE[visit.status]}>{tApp(`visits.status.${visit.status}`)}</StatusBadge>
          {visit.note ? (
            <StatusBadge tone={NOTE_TONE[visit.note.status]} testId="timeline-note-status">
              {t("record.note", { status: tNotes(`status.${visit.note.status}`) })}
            </StatusBadge>
          ) : null}
          <small>{tApp(`visits.languages.${visit.language}`)}</small>
        </div>
        {visit.codes.length > 0 ? (
          <ul className="timeline-codes" aria-label={t("record.codes")}>
            {visit.codes.map((c) => (
              <li key={`${c.system}-${c.code}`}>
                <code>{c.code}</code>
                {c.state === "suggested" ? <small> {t("record.codeSuggested")}</small> : null}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </li>
  );
}

/** The patient's visits and periodontal exams, newest first (issue 29). */
export function PatientTimeline({
  entries,
  patientId,
  hasMore,
}: {
  entries: TimelineEntry[];
  patientId: string;
  hasMore: boolean;
}) {
  const { t } = useTranslation("patients");
  const to = useLocalizedPath();
  const locale = useLocale();
  if (entries.length === 0) {
    return (
      <EmptyState icon="mic" title={t("record.emptyTitle")} testId="timeline-empty">
        <p>{t("record.emptyBody")}</p>
      </EmptyState>
    );
  }
  return (
    <>
      <ol className="patient-timeline" data-testid="patient-timeline">
        {entries.map((entry) =>
          entry.kind === "visit" ? (
            <VisitEntry key={entry.id} visit={entry} />
          ) : (
            <li key={entry.id} className="timeline-entry" data-kind="perio" data-testid="timeline-perio">
              <time dateTime={entry.date}>{formatCalendarDate(entry.date, locale)}</time>
              <div className="timeline-body">
                <Link to={`${to("/periodontal-chart")}?patient_id=${patientId}&exam=${entry.id}`}>{t("record.perioExam")}</Link>
                {entry.stage ? (
                  <div className="timeline-badges">
                    <StatusBadge tone="info">{t("record.perioStage", { stage: entry.stage })}</StatusBadge>
                  </div>
                ) : null}
              </div>
            </li>
          ),
        )}
      </ol>
      {hasMore ? <p className="ui-muted">{t("record.more")}</p> : null}
    </>
  );
}
