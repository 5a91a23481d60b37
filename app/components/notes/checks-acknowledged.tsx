import { useTranslation } from "react-i18next";
import type { NoteCheck } from "#app/services/notes/checks/checks.server.ts";
import { CheckText } from "./checks-text.tsx";

/** Issue 27: the signed record shows the checks a person acknowledged, who, when and why. */
export function ChecksAcknowledged({
  checks,
  language,
  sectionTitles,
  format,
}: {
  checks: readonly NoteCheck[];
  language: string;
  sectionTitles: Readonly<Record<string, string>>;
  format: (iso: string) => string;
}) {
  const { t } = useTranslation("checks");
  const acknowledged = checks.filter((c) => c.status === "acknowledged");
  if (!acknowledged.length) return null;
  return (
    <section className="note-checks-acknowledged" aria-labelledby="note-checks-ack-title" data-testid="note-checks-acknowledged">
      <h3 id="note-checks-ack-title">{t("acknowledged.title", { count: acknowledged.length })}</h3>
      <ul>
        {acknowledged.map((c) => (
          <li key={c.id} data-kind={c.kind}>
            <strong>{t(`kinds.${c.kind}`)}</strong>
            <CheckText check={c} language={language} sectionTitles={sectionTitles} />
            <small>
              {t("acknowledged.by", {
                name: c.resolved_by_name ?? t("acknowledged.someone"),
                date: c.resolved_at ? format(c.resolved_at) : "",
              })}
              {c.reason ? ` — ${c.reason}` : ""}
            </small>
          </li>
        ))}
      </ul>
    </section>
  );
}
