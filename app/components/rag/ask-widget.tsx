import { Dialog } from "radix-ui";
import { type PointerEvent, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Icon } from "#app/components/ui/icons.tsx";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import { AskError } from "./ask-client.ts";
import { ChatPanel } from "./chat-panel.tsx";
import { ASSISTANT } from "./constants.ts";
import { useAskChat } from "./use-ask-chat.ts";
import { useDrawerWidth } from "./use-drawer-width.ts";
import { clampButton, defaultButtonPosition, isClick, POSITION_KEY, type Point, parseStoredPosition } from "./widget-geometry.ts";

// SPEC §2 "Assistant widget": a draggable 48 px button (position remembered, kept 8 px inside, a
// press is a click under 5 px of movement) opening a resizable side drawer, or a full-height bottom
// sheet below 640 px. It needs JavaScript; /records-qa is the same assistant without it.

function viewport() {
  return { width: window.innerWidth, height: window.innerHeight };
}

function useButtonPosition() {
  const [position, setPosition] = useState<Point | null>(null);
  useEffect(() => {
    const stored = parseStoredPosition(localStorage.getItem(POSITION_KEY));
    setPosition(stored ? clampButton(stored, viewport()) : defaultButtonPosition(viewport()));
    // A smaller window must not push the button out of reach.
    const onResize = () => setPosition((p) => (p ? clampButton(p, viewport()) : p));
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  const save = useCallback((p: Point) => localStorage.setItem(POSITION_KEY, JSON.stringify(p)), []);
  return { position, setPosition, save };
}

export function AskWidget({ orgId, timeZone }: { orgId: string; timeZone: string }) {
  const { t } = useTranslation("rag");
  const locale = useLocale();
  const to = useLocalizedPath();
  const [open, setOpen] = useState(false);
  const { position, setPosition, save } = useButtonPosition();
  const drawer = useDrawerWidth();
  const drag = useRef<{ pointer: Point; origin: Point; moved: boolean } | null>(null);
  const suppressClick = useRef(false);
  const describeError = useCallback(
    (error: unknown) => {
      // SPEC §8: the server's message (translated by its code), else the error's, else 'Unexpected error'.
      if (error instanceof AskError && error.code) return t(`errors.${error.code}`, { defaultValue: error.message });
      return error instanceof Error && error.message ? error.message : t("errors.unexpected");
    },
    [t],
  );
  const chat = useAskChat({ orgId, language: locale, helpTry: t("answer.helpTry"), describeError });

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (!position || event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointer: { x: event.clientX, y: event.clientY }, origin: position, moved: false };
  };
  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    if (!d) return;
    const now = { x: event.clientX, y: event.clientY };
    if (!d.moved && isClick(d.pointer, now)) return;
    d.moved = true;
    setPosition(clampButton({ x: d.origin.x + now.x - d.pointer.x, y: d.origin.y + now.y - d.pointer.y }, viewport()));
  };
  const onPointerUp = (event: PointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    const end = { x: event.clientX, y: event.clientY };
    if (d.moved && !isClick(d.pointer, end)) {
      // A drag: remember where it ended, and do not let the click that follows open the drawer.
      suppressClick.current = true;
      save(clampButton({ x: d.origin.x + end.x - d.pointer.x, y: d.origin.y + end.y - d.pointer.y }, viewport()));
    } else if (d.moved) {
      // Moved out and back within 5 px: still a click, at the place it started.
      setPosition(d.origin);
    }
  };

  return (
    <>
      {position ? (
        <button
          type="button"
          className="ask-fab"
          title={t("widget.open")}
          aria-label={t("widget.open")}
          aria-haspopup="dialog"
          aria-expanded={open}
          data-testid="ask-widget-button"
          style={{ left: position.x, top: position.y, width: ASSISTANT.buttonPx, height: ASSISTANT.buttonPx }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => {
            drag.current = null;
          }}
          onClick={() => {
            if (suppressClick.current) {
              suppressClick.current = false;
              return;
            }
            setOpen(true);
          }}
        >
          <Icon name="chat" />
        </button>
      ) : null}
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="ui-overlay ask-overlay" />
          <Dialog.Content
            className="ask-drawer"
            data-compact={drawer.compact ? "true" : "false"}
            data-testid="ask-drawer"
            style={drawer.compact ? undefined : { width: drawer.width }}
            aria-describedby={undefined}
          >
            {drawer.compact ? null : (
              // biome-ignore lint/a11y/useSemanticElements: a focusable window splitter (WAI-ARIA), not a thematic break
              <div
                role="separator"
                tabIndex={0}
                aria-orientation="vertical"
                aria-label={t("widget.resize")}
                aria-valuenow={drawer.width}
                aria-valuemin={ASSISTANT.drawerMinPx}
                aria-valuemax={drawer.max}
                className="ask-resize"
                data-testid="ask-resize"
                {...drawer.handleProps}
              />
            )}
            <div className="ask-drawer-head">
              <Dialog.Title className="ask-drawer-title">{t("widget.title")}</Dialog.Title>
              <Link to={to("/records-qa")} className="ask-full-page" onClick={() => setOpen(false)}>
                {t("widget.openFullPage")}
              </Link>
              <Dialog.Close className="ui-icon-button" aria-label={t("page.close")}>
                <Icon name="close" />
              </Dialog.Close>
            </div>
            <ChatPanel chat={chat} orgId={orgId} timeZone={timeZone} />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}
