import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { NoteSentence } from "#app/services/notes/model.ts";
import { lowConfidenceWordsFor } from "./evidence.ts";
import { sentenceAnchor } from "./sentence-anchor.ts";
import { useTranscriptPieces } from "./transcript-context.ts";

/**
 * A section's sentences: hovering or focusing one shows its evidence in the transcript, clicking
 * it plays the recording where it was said. Sentences without evidence are marked unsupported.
 */
export function NoteSentences({
  sentences,
  sectionKey,
  onHover,
  onPlay,
}: {
  sentences: readonly NoteSentence[];
  /** Issue 27: with it, each sentence gets an id the checks panel links to. */
  sectionKey?: string;
  onHover: (sentence: NoteSentence | null) => void;
  onPlay: (seconds: number) => void;
}) {
  const { t } = useTranslation("notes");
  const localize = useLocalizedPath();
  const pieces = useTranscriptPieces();
  return (
    <ul className="note-sentences">
      {sentences.map((sentence, index) => {
        const unsupported = sentence.source === "transcript" && !sentence.supported;
        const pronouns = sentence.flags?.includes("pronoun_conflict") ?? false;
        const start = sentence.evidence[0]?.start;
        // Issue 14: a sentence read from the periodontal chart has no audio to play; its evidence is
        // the exam, one click away.
        const chart = sentence.source === "chart" ? sentence.chart : undefined;
        // One link per run of sentences from the same exam: a link on each line was noise.
        const before = sentences[index - 1];
        const showLink = chart && !(before?.source === "chart" && before.chart?.exam_id === chart.exam_id);
        // Issue 15: a sentence resting on words the speech engine was unsure of says which ones.
        const unsure = sentence.source === "transcript" ? lowConfidenceWordsFor(sentence.evidence, pieces) : [];
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: sentences have no id; order is their identity.
          <li key={index}>
            <button
              type="button"
              id={sectionKey === undefined ? undefined : sentenceAnchor(sectionKey, index)}
              className={`note-sentence${unsupported ? " unsupported" : ""}`}
              data-testid="note-sentence"
              data-source={sentence.source}
              data-supported={String(!unsupported)}
              data-evidence={sentence.evidence.length}
              data-start={start}
              onMouseEnter={() => onHover(sentence)}
              onFocus={() => onHover(sentence)}
              onMouseLeave={() => onHover(null)}
              onBlur={() => onHover(null)}
              onClick={() => (start === undefined ? undefined : onPlay(start))}
              data-flags={sentence.flags?.join(" ") || undefined}
              data-exam={chart?.exam_id}
              data-low-confidence={unsure.length ? unsure.join(" ") : undefined}
              title={
                unsupported
                  ? t("editor.unsupportedHint")
                  : pronouns
                    ? t("editor.pronounConflictHint")
                    : chart
                      ? t("editor.chartHint")
                      : undefined
              }
            >
              {sentence.text}
              {unsupported ? <span className="badge">{t("editor.unsupported")}</span> : null}
              {pronouns ? <span className="badge">{t("editor.pronounConflict")}</span> : null}
              {unsure.length ? (
                <span className="badge badge-warning" data-testid="low-confidence-evidence">
                  {t("editor.lowConfidence", { words: unsure.join(", "), count: unsure.length })}
                </span>
              ) : null}
            </button>
            {chart && showLink ? (
              <Link
                className="note-chart-link"
                data-testid="note-chart-link"
                to={`${localize("/periodontal-chart")}?patient_id=${chart.patient_id}&exam=${chart.exam_id}`}
                aria-label={t("editor.chartLink", { date: chart.exam_date })}
              >
                {t("editor.chartBadge")}
              </Link>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
