import { useTranslation } from "react-i18next";
import { formatElapsed } from "#app/components/recorder/format.ts";
import type { NoteLanguage, Omission } from "#app/services/notes/model.ts";

/** Facts said in the visit that the note does not carry, each with a link to where it was said. */
export function OmissionList({
  omissions,
  language,
  reliable = true,
  onPlay,
}: {
  omissions: readonly Omission[];
  language: NoteLanguage;
  /** Issue 27: false when the transcript is not "good": an empty list then proves nothing. */
  reliable?: boolean;
  onPlay: (seconds: number) => void;
}) {
  const { t } = useTranslation("notes");
  const { t: tChecks } = useTranslation("checks");
  return (
    <section className="note-omissions no-print" aria-labelledby="note-omissions-title" data-testid="note-omissions">
      <h3 id="note-omissions-title">{t("omissions.title")}</h3>
      {omissions.length > 0 && !reliable ? <p>{tChecks("omissions.unreliable")}</p> : null}
      {omissions.length === 0 ? (
        <p data-testid="note-omissions-empty">{reliable ? t("omissions.empty") : tChecks("omissions.unreliable")}</p>
      ) : (
        <ul>
          {omissions.map((o, index) => {
            const at = o.evidence[0]?.start;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: omissions have no id; order is their identity.
              <li key={index} data-kind={o.kind}>
                <small>{t(`omissions.kinds.${o.kind}`)}</small> <span lang={language}>{o.text}</span>
                {at === undefined ? null : (
                  <>
                    {" "}
                    <button type="button" className="link" onClick={() => onPlay(at)}>
                      {formatElapsed(at * 1000)}
                    </button>
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
