import { type CodeEntry, CodeTable, type SearchResult } from "./table.ts";

// The Tabular List's inclusion terms (FY2021, public domain; scripts/build-inclusion-terms.ts) as a
// search index: "Night sweats" finds R61 Generalized hyperhidrosis, "Lumbago NOS" the M54.5 codes.
// A term always resolves to FY2026 billable codes: its own code when still billable, otherwise the
// billable codes under it (split since FY2021, or a category), or under its nearest existing parent
// (retired), flagged so that the coder sees the term's code has changed (ADR 43).

export type TermStatus = "" | "header" | "split" | "retired";

export interface InclusionFile {
  source: string;
  version: string;
  counts: Record<string, number>;
  /** [term as printed, FY2021 code (dotless), status against FY2026] */
  terms: Array<[string, string, TermStatus]>;
}

export interface InclusionHit {
  result: SearchResult;
  score: number;
}

/** At most this many FY2026 codes listed for one term whose code was split or is a category. */
const MAX_TARGETS = 6;

export class InclusionIndex {
  private readonly terms: InclusionFile["terms"];
  private readonly index: CodeTable;
  private readonly codes: CodeTable;

  constructor(file: InclusionFile, codes: CodeTable) {
    this.terms = file.terms;
    this.codes = codes;
    // The terms are indexed like titles (same words, synonyms, typo tolerance): key = row number.
    this.index = new CodeTable(
      "icd10cm",
      file.version,
      file.terms.map(([term], i) => ({ key: String(i), code: String(i), title: term, billable: true })),
    );
  }

  /** Terms whose code is still billable in FY2026: [term, code key]. */
  currentTerms(): Array<[string, string]> {
    return this.terms.filter(([, , status]) => status === "").map(([term, key]) => [term, key]);
  }

  get size(): number {
    return this.terms.length;
  }

  /** The FY2026 billable codes a term stands for (see the file comment). */
  targets(code: string, status: TermStatus): CodeEntry[] {
    if (status === "") {
      const e = this.codes.get(code);
      return e?.billable ? [e] : [];
    }
    let prefix = code;
    let found = this.codes.billableUnder(prefix, MAX_TARGETS);
    while (found.length === 0 && prefix.length > 3) {
      prefix = prefix.slice(0, -1);
      found = this.codes.billableUnder(prefix, MAX_TARGETS);
    }
    return found;
  }

  search(query: string, limit: number): InclusionHit[] {
    const out: InclusionHit[] = [];
    const seen = new Set<string>();
    for (const { entry, score } of this.index.scoredSearch(query, limit)) {
      const [term, code, status] = this.terms[Number(entry.key)]!;
      for (const target of this.targets(code, status)) {
        if (seen.has(target.key)) continue;
        seen.add(target.key);
        out.push({
          score,
          result: {
            code: target.code,
            description: target.title,
            billable: true,
            matched_term: term,
            ...(status ? { term_code: displayDotted(code), term_status: status } : {}),
          },
        });
      }
      if (out.length >= limit) break;
    }
    return out.slice(0, limit);
  }
}

function displayDotted(key: string): string {
  return key.length > 3 ? `${key.slice(0, 3)}.${key.slice(3)}` : key;
}
