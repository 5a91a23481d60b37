import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { StatusBadge } from "#app/components/ui/badge.tsx";
import type { NoteCheck } from "#app/services/notes/checks/checks.server.ts";
import type { NoteSectionDraft } from "#app/services/notes/model.ts";
import { CheckText } from "./checks-text.tsx";
import { checkTarget } from "./sentence-anchor.ts";

/** With JavaScript, following a check's link also focuses its sentence (which shows its evidence). */
function focusTarget(event: MouseEvent<HTMLAnchorElement>) {
  const id = event.currentTarget.hash.slice(1);
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ block: "center" });
  if (!target.matches("button, a[href], input, textarea, select")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
  history.replaceState(null, "", `#${id}`);
}

/**
 * Issue 27 "The sign gate": the note's open checks, each with what it is about, a link to its
 * sentence and an "Acknowledge" form of its own — plain form posts, so the list works without
 * JavaScript and the page it comes back to shows the gate as the server sees it. A separate
 * component so the editor's layout (issue 29's sticky bar) can place it.
 */
export function ChecksPanel({
  noteId,
  checks,
  language,
  sectionTitles,
  sections = [],
}: {
  noteId: string;
  checks: readonly NoteCheck[];
  language: string;
  sectionTitles: Readonly<Record<string, string>>;
  /** The draft's sections: a check links to its own sentence's id (sentence-anchor.ts), else its section. */
  sections?: readonly NoteSectionDraft[];
}) {
  const { t } = useTranslation("checks");
  const busy = useNavigation().state !== "idle";
  const open = checks.filter((c) => c.status === "open");
  const blocking = open.filter((c) => c.gating).length;
  return (
    <section className="note-checks no-print" aria-labelledby="note-checks-title" data-testid="note-checks" data-open={blocking}>
      <h3 id="note-checks-title">
        {t("panel.title")}{" "}
        <StatusBadge tone={blocking ? "warning" : "success"} testId="note-checks-count">
          {blocking ? t("panel.count", { count: blocking }) : t("panel.clear")}
        </StatusBadge>
      </h3>
      {blocking ? <p>{t("panel.hint")}</p> : null}
      {open.length ? (
        <ul className="note-check-list">
          {open.map((c) => (
            <li key={c.id} data-kind={c.kind} data-code={c.code} data-testid="note-check">
              <StatusBadge tone={c.kind === "contradiction" || c.kind === "unsupported" ? "danger" : "warning"}>
                {t(`kinds.${c.kind}`)}
              </StatusBadge>
              {c.gating ? null : <small> {t("panel.advisory")}</small>}
              <CheckText check={c} language={language} sectionTitles={sectionTitles} />
              <CheckJump target={checkTarget(c, sections)} />
              <Form method="post" className="note-check-ack">
                <input type="hidden" name="note_id" value={noteId} />
                <input type="hidden" name="check_id" value={c.id} />
                <label>
                  <span>{t("panel.reason")}</span>
                  <input name="reason" maxLength={2000} autoComplete="off" />
                </label>
                <button type="submit" name="intent" value="acknowledge" className="secondary" disabled={busy}>
                  {t("panel.acknowledge")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function CheckJump({ target }: { target: string | null }) {
  const { t } = useTranslation("checks");
  if (!target) return null;
  const sentence = target.startsWith("note-sentence-");
  return (
    <a
      href={`#${target}`}
      className="note-check-jump"
      data-testid="note-check-jump"
      data-target={sentence ? "sentence" : "section"}
      onClick={focusTarget}
    >
      {t(sentence ? "panel.jump" : "panel.jumpSection")}
    </a>
  );
}
