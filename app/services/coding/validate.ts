import type { CodeTable } from "./codes/table.ts";
import type { Evidence, EvidenceSource, Suggestion } from "./model.ts";

/**
 * The gate every engine's output passes (docs/coding.md "Validation"): an unknown or header
 * (non-billable) code is dropped, the description is always the table's official title, evidence
 * must slice its source text exactly (an engine's quote is re-found in the text when its offsets
 * are wrong; evidence that cannot be found is dropped, and so is a suggestion left with none),
 * confidence is clamped to 0–1, duplicates keep their first (best-ranked) occurrence.
 */
export function validateSuggestions(
  proposals: ReadonlyArray<Partial<Suggestion> & { code?: unknown }>,
  table: CodeTable,
  sources: ReadonlyArray<{ source: EvidenceSource; text: string }>,
): Suggestion[] {
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  for (const p of proposals) {
    if (typeof p.code !== "string") continue;
    const entry = table.get(p.code);
    if (!entry?.billable || seen.has(entry.key)) continue;
    const evidence = (Array.isArray(p.evidence) ? p.evidence : []).flatMap((e) => fixEvidence(e, sources));
    if (evidence.length === 0) continue;
    seen.add(entry.key);
    const confidence =
      typeof p.confidence === "number" && Number.isFinite(p.confidence) ? Math.min(1, Math.max(0, p.confidence)) : 0.5;
    out.push({
      ...p,
      system: table.system,
      code: entry.code,
      description: entry.title,
      confidence,
      evidence,
      rationale: typeof p.rationale === "string" ? p.rationale.slice(0, 500) : "",
    } as Suggestion);
  }
  return out;
}

function fixEvidence(
  e: Partial<Evidence> | undefined,
  sources: ReadonlyArray<{ source: EvidenceSource; text: string }>,
): Evidence[] {
  if (!e || typeof e.quote !== "string" || e.quote.trim() === "") return [];
  const candidates = sources.filter((s) => !e.source || s.source === e.source);
  for (const s of candidates) {
    if (typeof e.start === "number" && typeof e.end === "number" && s.text.slice(e.start, e.end) === e.quote) {
      return [{ source: s.source, start: e.start, end: e.end, quote: e.quote }];
    }
  }
  for (const s of candidates) {
    const at = s.text.indexOf(e.quote);
    if (at >= 0) return [{ source: s.source, start: at, end: at + e.quote.length, quote: e.quote }];
    const lower = s.text.toLowerCase().indexOf(e.quote.toLowerCase());
    if (lower >= 0)
      return [
        { source: s.source, start: lower, end: lower + e.quote.length, quote: s.text.slice(lower, lower + e.quote.length) },
      ];
  }
  return [];
}
