// Category backoff of the embedded engine: a text that names a category ("type 2 diabetes mellitus",
// "chronic kidney disease") without the detail its billable codes need still deserves a candidate.
// Each header category's title stands for one billable child: the one coders used most in training,
// else its "unspecified" child, else its shortest. Such candidates rank after every direct match
// (engine.ts "tail") and their rationale says the category was matched, not the code.
import type { CodeTable } from "../../codes/table.ts";
import { buildTitleIndexOf, type TitleIndex } from "./title-index.ts";

export function categoryBackoffIndex(table: CodeTable, prior: Map<string, number>): TitleIndex {
  const children = new Map<string, Array<{ key: string; title: string }>>();
  for (const e of table.entries) {
    if (!e.billable || e.key.length <= 3) continue;
    const cat = e.key.slice(0, 3);
    let list = children.get(cat);
    if (!list) {
      list = [];
      children.set(cat, list);
    }
    list.push(e);
  }
  const pairs: Array<{ key: string; title: string }> = [];
  for (const e of table.entries) {
    // "Other hypertension", "Other and unspecified …": a residual bucket, not a diagnosis a text names.
    if (e.billable || e.key.length !== 3 || /\bother\b/i.test(e.title)) continue;
    const kids = children.get(e.key);
    if (!kids || kids.length === 0) continue;
    const byPrior = [...kids].sort((a, b) => (prior.get(b.key) ?? 0) - (prior.get(a.key) ?? 0));
    const unspecified = kids.filter((k) => /\bunspecified\b/i.test(k.title)).sort((a, b) => a.key.length - b.key.length);
    const shortest = [...kids].sort((a, b) => a.key.length - b.key.length || (a.key < b.key ? -1 : 1));
    const child = (prior.get(byPrior[0]!.key) ?? 0) > 0 ? byPrior[0]! : (unspecified[0] ?? shortest[0]!);
    pairs.push({ key: child.key, title: e.title });
  }
  return buildTitleIndexOf(pairs);
}
