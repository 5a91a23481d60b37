import { type ReactNode, useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * A menu whose entries are links and form posts (organisation switcher, language, account): the
 * WAI-ARIA "disclosure" pattern on <details>/<summary> (ADR 11). It opens and its forms post before
 * hydration and without JavaScript; once hydrated it also closes on Escape (focus back on the
 * trigger), on a click or focus outside, and when the page changes under it — but not on
 * hydration itself, so a menu opened while the page loads stays open.
 */
export function DisclosureMenu({
  summary,
  summaryLabel,
  children,
  className = "",
  align = "end",
  testId,
  summaryClassName = "",
}: {
  summary: ReactNode;
  summaryLabel?: string;
  children: ReactNode;
  className?: string;
  align?: "start" | "end";
  testId?: string;
  summaryClassName?: string;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const { key } = useLocation();
  const shownKey = useRef(key);
  useEffect(() => {
    if (shownKey.current === key) return;
    shownKey.current = key;
    if (ref.current) ref.current.open = false;
  }, [key]);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    const onOutside = (event: Event) => {
      if (details.open && event.target instanceof Node && !details.contains(event.target)) details.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onOutside);
    document.addEventListener("focusin", onOutside);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onOutside);
      document.removeEventListener("focusin", onOutside);
    };
  }, []);
  return (
    <details ref={ref} className={`ui-menu ${className}`} data-align={align} data-testid={testId}>
      <summary aria-label={summaryLabel} className={`ui-menu-trigger ${summaryClassName}`}>
        {summary}
      </summary>
      <div className="ui-menu-panel">{children}</div>
    </details>
  );
}
