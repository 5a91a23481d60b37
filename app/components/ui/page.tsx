import type { ReactNode } from "react";
import { Icon, type IconName } from "./icons.tsx";

/**
 * Layout primitives (issue 11): the frame every signed-in page uses. Plain server-rendered HTML
 * styled by ui.css; no JavaScript.
 */

/** A page: title, one line saying what it is for, actions on the right; then its sections. */
export function Page({
  title,
  description,
  actions,
  children,
  testId,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="ui-page" data-testid={testId}>
      <header className="ui-page-header">
        <div className="ui-page-heading">
          <h1>{title}</h1>
          {description ? <p>{description}</p> : null}
        </div>
        {actions ? <div className="ui-page-actions">{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}

/** A titled block of a page, on a surface card. */
export function Section({
  title,
  description,
  actions,
  children,
  id,
  testId,
  flush = false,
}: {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  id?: string;
  testId?: string;
  /** No inner padding: for tables and lists that run edge to edge. */
  flush?: boolean;
}) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section className="ui-section" id={id} aria-labelledby={title ? headingId : undefined} data-testid={testId}>
      {title || actions ? (
        <header className="ui-section-header">
          <div>
            {title ? <h2 id={headingId}>{title}</h2> : null}
            {description ? <p>{description}</p> : null}
          </div>
          {actions ? <div className="ui-section-actions">{actions}</div> : null}
        </header>
      ) : null}
      <div className={flush ? "ui-section-body ui-section-body-flush" : "ui-section-body"}>{children}</div>
    </section>
  );
}

/** A row of controls (filters, search, buttons) that wraps on narrow screens. */
export function Toolbar({ children }: { children: ReactNode }) {
  return <div className="ui-toolbar">{children}</div>;
}

/** Two panes side by side (note beside transcript); stacked below 1024 px. */
export function SplitView({
  primary,
  secondary,
  ratio = "1:1",
}: {
  primary: ReactNode;
  secondary: ReactNode;
  ratio?: "1:1" | "2:1" | "1:2";
}) {
  return (
    <div className="ui-split" data-ratio={ratio}>
      <div className="ui-split-pane">{primary}</div>
      <div className="ui-split-pane">{secondary}</div>
    </div>
  );
}

/** What a page or list is for when it has nothing yet, and the next action. */
export function EmptyState({
  icon = "circle",
  title,
  children,
  action,
  testId,
}: {
  icon?: IconName;
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="ui-empty" data-testid={testId}>
      <span className="ui-empty-icon">
        <Icon name={icon} size={22} />
      </span>
      <p className="ui-empty-title">{title}</p>
      {children ? <div className="ui-empty-body">{children}</div> : null}
      {action ? <div className="ui-empty-action">{action}</div> : null}
    </div>
  );
}

/** Placeholder lines while a page or panel loads (instead of a spinner). */
export function Skeleton({ lines = 3, label }: { lines?: number; label: string }) {
  return (
    <div className="ui-skeleton" role="status" aria-label={label}>
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders
        <span key={i} className="ui-skeleton-line" style={{ width: `${100 - ((i * 17) % 45)}%` }} />
      ))}
    </div>
  );
}
