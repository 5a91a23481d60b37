import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from "react";
import { ASSISTANT } from "./constants.ts";
import { clampDrawerWidth, isCompact, parseStoredWidth, WIDTH_KEY } from "./widget-geometry.ts";

// The drawer's width (SPEC §2/§5): 600 px by default, dragged (or arrowed) between 360 px and 92%
// of the window, remembered in localStorage; below 640 px the drawer is a bottom sheet instead.

const KEY_STEP_PX = 24;

export function useDrawerWidth() {
  const [windowWidth, setWindowWidth] = useState(1280);
  const [width, setWidth] = useState<number>(ASSISTANT.drawerDefaultPx);
  const drag = useRef<{ x: number; width: number } | null>(null);
  useEffect(() => {
    setWindowWidth(window.innerWidth);
    setWidth(parseStoredWidth(localStorage.getItem(WIDTH_KEY)));
    const onResize = () => setWindowWidth(window.innerWidth);
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  const shown = clampDrawerWidth(width, windowWidth);
  const commit = (next: number) => {
    const clamped = clampDrawerWidth(next, window.innerWidth);
    setWidth(clamped);
    localStorage.setItem(WIDTH_KEY, String(clamped));
  };
  const handleProps = {
    onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
      event.currentTarget.setPointerCapture(event.pointerId);
      drag.current = { x: event.clientX, width: shown };
    },
    onPointerMove: (event: PointerEvent<HTMLDivElement>) => {
      // The drawer is on the right: moving the handle left widens it.
      if (drag.current) setWidth(clampDrawerWidth(drag.current.width + drag.current.x - event.clientX, window.innerWidth));
    },
    onPointerUp: (event: PointerEvent<HTMLDivElement>) => {
      if (!drag.current) return;
      commit(drag.current.width + drag.current.x - event.clientX);
      drag.current = null;
    },
    onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
      if (event.key === "ArrowLeft") commit(shown + KEY_STEP_PX);
      else if (event.key === "ArrowRight") commit(shown - KEY_STEP_PX);
      else return;
      event.preventDefault();
    },
  };
  return {
    width: shown,
    max: Math.floor(windowWidth * ASSISTANT.drawerMaxShare),
    compact: isCompact(windowWidth),
    handleProps,
  };
}
