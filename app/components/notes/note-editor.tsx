import { useCallback, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useRevalidator } from "react-router";
import { CodingPanel } from "#app/components/coding/coding-panel.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { CodingPage } from "#app/services/notes/editor-page.server.ts";
import type { NoteSentence } from "#app/services/notes/model.ts";
import { formatDate } from "#app/utils/zoned-time.ts";
import { StatusBadge, type Tone } from "../ui/badge.tsx";
import { ChecksAcknowledged } from "./checks-acknowledged.tsx";
import { ChecksPanel } from "./checks-panel.tsx";
import { DraftForm } from "./draft-form.tsx";
import { lowConfidenceWordsFor, piecesFor } from "./evidence.ts";
import { ExportBar } from "./export-bar.tsx";
import { NoteBar } from "./note-bar.tsx";
import { NotePrint } from "./note-print.tsx";
import { OmissionList } from "./omission-list.tsx";
import { RatingForm } from "./rating-form.tsx";
import { SignedView } from "./signed-view.tsx";
import { ToCheckBadge } from "./to-check-badge.tsx";
import { TranscriptPiecesContext } from "./transcript-context.ts";
import { TranscriptEvidence } from "./transcript-evidence.tsx";
import { TranscriptQualityBanner } from "./transcript-quality-banner.tsx";
import { useNoteEvents } from "./use-note-events.ts";
import { VersionHistory } from "./version-history.tsx";

type NotePage = Extract<CodingPage, { kind: "note" }>;

// Issue 29: the status in colour and words (a draft is not signed: a warning, never a grey word).
const STATUS_TONE: Record<NotePage["note"]["status"], Tone> = {
  generating: "info",
  draft: "warning",
  failed: "danger",
  signed: "success",
  amended: "info",
};

/**
 * The note editor (issue 6): the note beside its transcript, evidence on hover, audio on click.
 * Times (signature, versions) are on the organisation's clock, `timeZone`.
 */
export function NoteEditor({ page, timeZone, error }: { page: NotePage; timeZone: string; error?: string }) {
  const { t, i18n } = useTranslation("notes");
  const { note } = page;
  const revalidator = useRevalidator();
  const localize = useLocalizedPath();
  const refresh = useCallback(() => void revalidator.revalidate(), [revalidator]);
  const generating = note.status === "generating";
  const progress = useNoteEvents({ noteId: note.id, orgId: page.orgId, enabled: generating, onDone: refresh });
  const [hovered, setHovered] = useState<NoteSentence | null>(null);
  const active = useMemo(() => piecesFor(hovered?.evidence ?? [], page.transcript), [hovered, page.transcript]);
  const unsure = useMemo(
    () => (hovered?.source === "transcript" ? lowConfidenceWordsFor(hovered.evidence, page.transcript) : []),
    [hovered, page.transcript],
  );
  const player = useRef<HTMLAudioElement>(null);
  const play = useCallback((seconds: number) => {
    const audio = player.current;
    if (!audio) return;
    audio.currentTime = seconds;
    // Playback may be refused (no audio output, autoplay rules): the position still moved.
    audio.play().catch(() => {});
  }, []);
  const signed = note.status === "signed" || note.status === "amended";
  const blocking = note.checks.filter((c) => c.status === "open" && c.gating).length;
  const sectionTitles = Object.fromEntries(note.sections.map((s) => [s.key, s.title]));
  const fromPoorTranscript = note.checks.some((c) => c.code === "poor_transcript" && c.status !== "resolved");
  // "N to check" counts the note's open checks (issue 27), the same list the sign gate reads.
  const toCheck = note.checks.filter((c) => c.status === "open").length;
  const format = (iso: string) => formatDate(iso, i18n.language, timeZone);

  return (
    <TranscriptPiecesContext.Provider value={page.transcript}>
      <article className="note-editor" data-testid="note-editor" data-status={note.status} data-note-language={note.language}>
        <header className="no-print">
          <h2>
            {page.patientName}
            {page.visitTitle ? ` — ${page.visitTitle}` : ""}
          </h2>
          <p>
            {t("editor.meta", { template: note.template_name, language: t(`languages.${note.language}`) })} ·{" "}
            <StatusBadge tone={STATUS_TONE[note.status]} testId="note-status">
              {t(`status.${note.status}`)}
            </StatusBadge>{" "}
            {note.status === "draft" ? <ToCheckBadge count={toCheck} /> : null} ·{" "}
            <Link to={`${localize("/transcribing")}?visit_id=${note.visit_id}&transcript=1`}>{t("editor.back")}</Link>
          </p>
        </header>
        {/* Issue 29: a draft says so on screen as it does on the PDF. */}
        {note.status === "draft" ? (
          <p className="note-draft-band" data-testid="note-draft-band">
            {t("draftBand")}
          </p>
        ) : null}
        {error ? (
          <p role="alert" data-code={error} className="no-print">
            {t(`errors.${error}`, { defaultValue: t("errors.invalid_input") })}
          </p>
        ) : null}
        {generating ? (
          <div className="no-print">
            <small aria-live="polite">
              {progress === null ? t("editor.waiting") : t("editor.progress", { percent: Math.round(progress * 100) })}
            </small>
            <progress data-testid="note-progress" max={1} value={progress ?? undefined} />
          </div>
        ) : null}
        {note.failure ? (
          <p role="alert" data-code={note.failure.code} className="no-print">
            {note.status === "failed"
              ? t(`failures.${note.failure.code}`, { defaultValue: t("failures.other") })
              : t("editor.sectionFailures")}
          </p>
        ) : null}
        {/* Issue 27: a note drafted from a poor transcript opens with the warning; a doubtful transcript says so. */}
        {note.status !== "generating" ? (
          <TranscriptQualityBanner
            quality={
              fromPoorTranscript ? { score: 0, reasons: [], ...page.transcriptQuality, tier: "poor" } : page.transcriptQuality
            }
            note={fromPoorTranscript}
          />
        ) : null}
        {page.audioUrl ? (
          // biome-ignore lint/a11y/useMediaCaption: the transcript beside the note is the recording's text.
          <audio ref={player} controls preload="metadata" src={page.audioUrl} className="no-print" data-testid="note-audio" />
        ) : null}
        <div className="note-columns">
          <div className="note-main">
            {note.status === "draft" ? (
              <>
                <p className="no-print">
                  <small>{t("editor.evidenceHint")}</small>
                </p>
                <ChecksPanel
                  noteId={note.id}
                  checks={note.checks}
                  language={note.language}
                  sectionTitles={sectionTitles}
                  sections={note.sections}
                />
                <DraftForm
                  key={note.updated_at}
                  noteId={note.id}
                  sections={note.sections}
                  language={note.language}
                  onHover={setHovered}
                  onPlay={play}
                />
              </>
            ) : null}
            {signed && note.signed_at ? (
              <SignedView
                key={note.updated_at}
                note={note}
                canAmend={page.canSign}
                signedAt={format(note.signed_at)}
                onHover={setHovered}
                onPlay={play}
              />
            ) : null}
            {signed ? (
              <ChecksAcknowledged checks={note.checks} language={note.language} sectionTitles={sectionTitles} format={format} />
            ) : null}
            {note.status === "draft" || signed ? (
              <>
                {/* Issue 27: status, "N to check" and Sign stay in reach, stuck to the bottom of the screen. */}
                <NoteBar
                  status={note.status}
                  tone={STATUS_TONE[note.status]}
                  toCheck={toCheck}
                  blocking={blocking}
                  canSign={page.canSign}
                />
                <ExportBar noteId={note.id} orgId={page.orgId} sections={note.sections} headers={note.headers} />
                <OmissionList
                  omissions={note.omissions}
                  language={note.language}
                  reliable={page.transcriptQuality === null || page.transcriptQuality.tier === "good"}
                  onPlay={play}
                />
                <RatingForm noteId={note.id} rating={note.rating} comment={note.rating_comment} />
                <VersionHistory versions={note.versions} format={format} />
              </>
            ) : null}
          </div>
          <aside className="note-side no-print" aria-label={t("editor.transcript")}>
            {/* Issue 13: a signed note is coded beside itself (owners and clinicians, who alone open notes). */}
            {signed && page.canSign ? <CodingPanel orgId={page.orgId} noteId={note.id} /> : null}
            <h3>{t("editor.transcript")}</h3>
            {/* Issue 15: the hovered sentence's evidence includes words the speech engine was unsure of. */}
            <p className="note-evidence-unsure" aria-live="polite" data-testid="evidence-low-confidence" hidden={!unsure.length}>
              {unsure.length ? t("editor.lowConfidenceEvidence", { words: unsure.join(", "), count: unsure.length }) : null}
            </p>
            <TranscriptEvidence
              pieces={page.transcript}
              active={active}
              quotes={hovered?.evidence ?? []}
              language={note.language}
              audioUrl={page.audioUrl}
              onSeek={play}
            />
          </aside>
        </div>
        <NotePrint
          title={note.template_name}
          patient={page.patientName}
          note={note}
          signedAt={note.signed_at ? format(note.signed_at) : null}
        />
      </article>
    </TranscriptPiecesContext.Provider>
  );
}
