import type { ReactNode } from "react";

export type Tone = "neutral" | "info" | "success" | "warning" | "danger";

/** A short status label. Colour is never the only signal: the text says it (issue 11, a11y). */
export function StatusBadge({ tone = "neutral", children, testId }: { tone?: Tone; children: ReactNode; testId?: string }) {
  return (
    <span className="ui-badge" data-tone={tone} data-testid={testId}>
      {children}
    </span>
  );
}
