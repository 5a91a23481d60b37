import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigation } from "react-router";
import { StatusBadge, type Tone } from "../ui/badge.tsx";
import { DRAFT_FORM_ID } from "./draft-form.tsx";
import { ToCheckBadge } from "./to-check-badge.tsx";

/**
 * Issue 27: the editor's sticky bar (bottom of the viewport while the note is on screen): the
 * note's status, "N to check" and, on a draft, Save and Sign — Sign disabled with the count while
 * gating checks are open. The buttons submit the draft form by its id, so they post without
 * JavaScript and save typed text first.
 */
export function NoteBar({
  status,
  tone,
  toCheck,
  blocking,
  canSign,
}: {
  status: string;
  tone: Tone;
  toCheck: number;
  blocking: number;
  canSign: boolean;
}) {
  const { t } = useTranslation("notes");
  const { t: tChecks } = useTranslation("checks");
  const busy = useNavigation().state !== "idle";
  const draft = status === "draft";
  const confirmSign = (event: MouseEvent<HTMLButtonElement>) => {
    if (!window.confirm(t("sign.confirm"))) event.preventDefault();
  };
  return (
    <section className="note-bar no-print" data-testid="note-bar" aria-label={tChecks("bar.label")}>
      <div className="note-bar-status">
        <StatusBadge tone={tone} testId="note-bar-status">
          {t(`status.${status}`)}
        </StatusBadge>
        {draft ? <ToCheckBadge count={toCheck} testId="note-bar-to-check" /> : null}
      </div>
      {draft ? (
        <div className="note-actions">
          <button type="submit" form={DRAFT_FORM_ID} name="intent" value="save" disabled={busy} data-testid="note-save">
            {t("editor.save")}
          </button>
          {canSign ? (
            <button
              type="submit"
              form={DRAFT_FORM_ID}
              name="intent"
              value="sign"
              className="contrast"
              onClick={confirmSign}
              disabled={busy || blocking > 0}
              aria-describedby={blocking > 0 ? "note-checks-title" : undefined}
              data-testid="note-sign"
            >
              {blocking > 0 ? tChecks("panel.signBlocked", { count: blocking }) : t("sign.submit")}
            </button>
          ) : (
            <small>{t("sign.notAllowed")}</small>
          )}
        </div>
      ) : null}
    </section>
  );
}
