import type { CodeTable } from "#app/services/coding/codes/table.ts";
import { isStopWord, words } from "#app/services/coding/text.ts";
import type { CodiEspDoc } from "./data.ts";

/**
 * The naive baseline for scale: every billable code ranked by the share of its title's words found
 * anywhere in the document (ties: shorter titles first); top 30.
 */
export function titleOverlapBaseline(table: CodeTable): (doc: CodiEspDoc) => string[] {
  const titles = table.entries
    .filter((e) => e.billable)
    .map((e) => ({ code: e.code, ws: [...new Set(words(e.title).filter((w) => !isStopWord(w)))] }));
  return (doc) => {
    const present = new Set(words(doc.text));
    const scored: Array<[string, number]> = [];
    for (const t of titles) {
      if (t.ws.length === 0) continue;
      const hit = t.ws.filter((w) => present.has(w)).length;
      if (hit > 0) scored.push([t.code, hit / t.ws.length - t.ws.length * 0.001]);
    }
    return scored
      .sort((a, b) => b[1] - a[1])
      .slice(0, 30)
      .map(([c]) => c);
  };
}
