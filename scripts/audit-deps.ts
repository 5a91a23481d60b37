// Dependency audit (issue 17): `npm audit --omit=dev`, failing on any high or critical advisory
// that security-allowlist.json does not list with a reason. Run by the test command.
// When the registry's audit service cannot be reached (these machines' proxy answers 405 to its
// POST), the run says so plainly and does not fail: no answer is not a finding.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

export interface AllowEntry {
  /** The advisory id (GHSA-…) or its URL. */
  advisory: string;
  package: string;
  reason: string;
  /** ISO date after which the entry no longer counts, so accepted risks get looked at again. */
  until: string;
}

interface AuditVia {
  source?: number;
  name?: string;
  title?: string;
  url?: string;
  severity?: string;
}

export interface AuditReport {
  vulnerabilities?: Record<string, { severity: string; via: (AuditVia | string)[] }>;
}

export interface Finding {
  package: string;
  severity: string;
  advisory: string;
  title: string;
}

const BLOCKING = new Set(["high", "critical"]);

/** High and critical advisories of the report that no live allow-list entry covers. */
export function blockingFindings(report: AuditReport, allow: AllowEntry[], today: string): Finding[] {
  const out: Finding[] = [];
  for (const [pkg, vuln] of Object.entries(report.vulnerabilities ?? {})) {
    for (const via of vuln.via) {
      // A string "via" points at another vulnerable package; its own entry reports the advisory.
      if (typeof via === "string") continue;
      const severity = via.severity ?? vuln.severity;
      if (!BLOCKING.has(severity)) continue;
      const advisory = via.url ?? String(via.source ?? "");
      const allowed = allow.some(
        (a) => a.package === pkg && (advisory.endsWith(a.advisory) || a.advisory === advisory) && a.until >= today,
      );
      if (!allowed) out.push({ package: pkg, severity, advisory, title: via.title ?? "" });
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const allow = JSON.parse(fs.readFileSync("security-allowlist.json", "utf8")) as AllowEntry[];
  const run = spawnSync("npm", ["audit", "--omit=dev", "--json"], { encoding: "utf8", timeout: 120_000 });
  let report: AuditReport & { error?: { summary?: string }; message?: string };
  try {
    report = JSON.parse(run.stdout || "{}");
  } catch {
    report = {};
  }
  if (!report.vulnerabilities) {
    const why = report.message ?? report.error?.summary ?? run.stderr.split("\n").find((l) => l.includes("error")) ?? "no report";
    console.log(`dependency audit: the registry's audit service did not answer (${why.trim()}); skipped.`);
    process.exit(0);
  }
  const findings = blockingFindings(report, allow, new Date().toISOString().slice(0, 10));
  const counted = Object.keys(report.vulnerabilities).length;
  if (findings.length === 0) {
    console.log(`dependency audit: no unaccepted high or critical advisory (${counted} packages with any advisory).`);
    process.exit(0);
  }
  for (const f of findings) console.error(`  ${f.severity.padEnd(8)} ${f.package}: ${f.title} ${f.advisory}`);
  console.error("Fix, or accept in security-allowlist.json with a reason and an end date.");
  process.exit(1);
}
