import type { AssetSize, PageJs } from "./bundle-size.ts";
import type { LoadResult } from "./load.ts";

export const KIB = 1024;

export type Budget = { name: string; measured: number; limit: number; unit: "bytes" | "ms"; pass: boolean };

export const bytes = (n: number) => `${Math.round(n).toLocaleString("en-US")} B`;
export const kib = (n: number) => `${(n / KIB).toFixed(1)} KiB`;
const ms = (n: number) => `${n.toFixed(2)} ms`;

/** Renders rows as a plain-text table; numeric-looking cells are right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const numeric = /^[-\d.,]+(\s?\S+)?$/;
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i > 0 && numeric.test(cell) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function loadTable(results: LoadResult[]): string {
  return table(
    ["URL", "req/s (avg)", "p50", "p95", "p99", "responses", "non-2xx", "errors", "bytes/response"],
    results.map((r) => [
      r.path,
      r.requestsPerSec.toFixed(1),
      ms(r.latencyMs.p50),
      ms(r.latencyMs.p95),
      ms(r.latencyMs.p99),
      r.responses.toLocaleString("en-US"),
      String(r.non2xx),
      String(r.errors + r.timeouts),
      bytes(r.bytesPerResponse),
    ]),
  );
}

export function assetTable(files: AssetSize[]): string {
  return table(
    ["file", "raw", "gzip -9", "served", "encoding", "found via"],
    files.map((f) => [
      f.path.replace(/^\/assets\//, ""),
      kib(f.rawBytes),
      kib(f.gzip9Bytes),
      kib(f.transferBytes),
      f.contentEncoding,
      f.via,
    ]),
  );
}

export function pageJsSummary(js: PageJs): string {
  const lines = [
    `${js.files.length} files. Total: raw ${kib(js.totals.rawBytes)}, gzip -9 ${kib(js.totals.gzip9Bytes)} (${bytes(js.totals.gzip9Bytes)}), served ${kib(js.totals.transferBytes)} (${bytes(js.totals.transferBytes)})`,
  ];
  if (js.lazy.length > 0) {
    lines.push("Loaded on demand through import(), not counted:");
    for (const l of js.lazy) lines.push(`  ${l.path.replace(/^\/assets\//, "")}  ${kib(l.gzip9Bytes)} gzip -9  (from ${l.from})`);
  }
  return lines.join("\n");
}

export function budgetTable(budgets: Budget[]): string {
  const show = (b: Budget, n: number) => (b.unit === "ms" ? ms(n) : `${bytes(n)} (${kib(n)})`);
  return table(
    ["budget", "measured", "limit", "result"],
    budgets.map((b) => [b.name, show(b, b.measured), show(b, b.limit), b.pass ? "PASS" : "FAIL"]),
  );
}
