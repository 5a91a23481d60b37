import type { Page } from "@playwright/test";
import axe from "axe-core";

// axe-core run straight in the page, once injected per document. @axe-core/playwright's
// `analyze()` evaluates the 600 kB axe source into the page twice per call and then opens a new
// blank page to merge the results (`finishRun`); at two widths per page that was four injections
// and two extra pages for one scan. The pages scanned have no iframes (`grep -r "<iframe" app`
// is empty), the only thing that per-frame machinery is for. Same rules, same tags, same DOM.

export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] as const;

export interface AxeFinding {
  id: string;
  impact: string | null;
  targets: string[];
}

/** Every violation of the WCAG 2.1 A/AA rules in the page's current document. */
export async function axeViolations(page: Page, tags: readonly string[] = WCAG_TAGS): Promise<AxeFinding[]> {
  // A navigation gives a new document without axe: inject once per document, not per run.
  const injected = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === "object");
  if (!injected) await page.evaluate(axe.source);
  return page.evaluate(async (values) => {
    const runner = (window as unknown as { axe: typeof axe }).axe;
    // Only violations are read: the passes, "incomplete" and "inapplicable" lists are cut to one
    // node each instead of serialising every node of the page back to the test.
    const results = await runner.run(document, { runOnly: { type: "tag", values }, resultTypes: ["violations"] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
  }, tags as string[]);
}
