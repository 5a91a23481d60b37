import { useTranslation } from "react-i18next";
import type { NoteCheck } from "#app/services/notes/checks/checks.server.ts";

/** What a check is about, in the interface language; the note's own words keep the note's language. */
export function CheckText({
  check,
  language,
  sectionTitles,
}: {
  check: NoteCheck;
  language: string;
  sectionTitles: Readonly<Record<string, string>>;
}) {
  const { t } = useTranslation("checks");
  const section = check.section ? sectionTitles[check.section] : null;
  return (
    <div className="note-check-text">
      <p>{t(`codes.${check.kind}.${check.code}`, { defaultValue: t(`kinds.${check.kind}`) })}</p>
      {check.sentence ? (
        <blockquote lang={language}>
          {section ? <small>{section} · </small> : null}
          {check.sentence}
        </blockquote>
      ) : null}
      {check.kind === "contradiction" || check.kind === "omission" || check.kind === "low_confidence" ? (
        <p>
          <small>{t(`detail.${check.kind}`)}</small> <q lang={language}>{check.text}</q>
        </p>
      ) : null}
    </div>
  );
}
