import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import { StatusBadge } from "#app/components/ui/badge.tsx";
import { SPEAKER_ROLES, type SpeakerRole } from "#app/services/speech/diarise/speaker.ts";

/** Where a speaker change goes: the newest version of this visit's transcript. */
export interface SpeakerEditTarget {
  visitId: string;
  version: number;
}

/**
 * Who said a segment (issue 26), and a picker that saves a correction as a new transcript version
 * (POST /api/visits/:id/transcript/speaker); the page's data reloads after it.
 */
export function SegmentSpeaker({
  speaker,
  edited,
  index,
  target,
}: {
  speaker: SpeakerRole | null | undefined;
  edited?: boolean;
  index: number;
  target?: SpeakerEditTarget;
}) {
  const { t } = useTranslation("asr");
  if (target) return <SpeakerPicker speaker={speaker} edited={edited} index={index} target={target} />;
  return (
    <span className="segment-speaker" data-speaker={speaker ?? "unknown"} data-testid="segment-speaker">
      <StatusBadge tone={speaker === "clinician" ? "info" : "neutral"}>
        {speaker ? t(`speakers.${speaker}`) : t("speakers.unknown")}
      </StatusBadge>
    </span>
  );
}

/** The editable form: only where the page has a data router (the transcript view), never in a read-only render. */
function SpeakerPicker({
  speaker,
  edited,
  index,
  target,
}: {
  speaker: SpeakerRole | null | undefined;
  edited?: boolean;
  index: number;
  target: SpeakerEditTarget;
}) {
  const { t } = useTranslation("asr");
  const fetcher = useFetcher<{ code?: string }>();
  const failed = fetcher.state === "idle" && fetcher.data?.code !== undefined;
  return (
    <span className="segment-speaker" data-speaker={speaker ?? "unknown"} data-testid="segment-speaker">
      <select
        aria-label={t("speakers.change", { number: index + 1 })}
        value={speaker ?? ""}
        disabled={fetcher.state !== "idle"}
        data-testid="segment-speaker-select"
        // Inline beside the time, not the form layout's full-width field.
        style={{
          width: "auto",
          display: "inline-block",
          margin: "0 0.25rem",
          padding: "0.1rem 2rem 0.1rem 0.5rem",
          fontSize: "0.875rem",
        }}
        onChange={(event) => {
          const value = event.currentTarget.value;
          if (!value) return;
          fetcher.submit(
            { base_version: target.version, segment: index, speaker: value },
            { method: "post", action: `/api/visits/${target.visitId}/transcript/speaker`, encType: "application/json" },
          );
        }}
      >
        {speaker ? null : <option value="">{t("speakers.changeUnknown")}</option>}
        {SPEAKER_ROLES.map((role) => (
          <option key={role} value={role}>
            {t(`speakers.${role}`)}
          </option>
        ))}
      </select>
      {edited ? <small className="segment-speaker-edited"> ({t("speakers.edited")})</small> : null}
      {failed ? (
        <small role="alert" className="segment-speaker-error">
          {t("speakers.failed")}
        </small>
      ) : null}
    </span>
  );
}
