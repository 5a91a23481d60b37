import { useTranslation } from "react-i18next";
import type { TranscriptQuality } from "#app/services/visits/transcript-quality.ts";

/**
 * Issue 27 "Transcript quality, told honestly": a transcript that is not good says so, with what
 * to do; "poor" is an alert (a note drafted from it rests on guesses). `note`: the warning a note
 * drafted from such a transcript opens with.
 */
export function TranscriptQualityBanner({ quality, note = false }: { quality: TranscriptQuality | null; note?: boolean }) {
  const { t } = useTranslation("checks");
  if (!quality || quality.tier === "good") return null;
  const poor = quality.tier === "poor";
  return (
    <div
      className="transcript-quality-banner no-print"
      data-tier={quality.tier}
      role={poor ? "alert" : "status"}
      data-testid="transcript-quality-banner"
    >
      <p>
        <strong>{t(note ? `quality.note.${quality.tier}` : `quality.title.${quality.tier}`)}</strong>
      </p>
      {quality.reasons.length ? (
        <ul>
          {quality.reasons.map((r) => (
            <li key={r}>{t(`quality.reasons.${r}`)}</li>
          ))}
        </ul>
      ) : null}
      <p>{t(poor ? "quality.todo.poor" : "quality.todo.check")}</p>
    </div>
  );
}
