import { accentCss } from "#app/utils/accent.ts";

/**
 * The practice's accent colour on every signed-in page (issue 11): a small stylesheet setting the
 * tokens tokens.css defines, so buttons, links, the active section and portalled dialogs follow it.
 * Rendered on the server, so there is no flash of Murmur's colour first.
 */
export function PracticeAccent({ hex }: { hex: string | null | undefined }) {
  const css = accentCss(hex);
  return css ? <style data-testid="practice-accent">{css}</style> : null;
}
