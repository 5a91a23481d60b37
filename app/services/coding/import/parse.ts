// Reading a licensed code file (CPT, CDT) or a CMS HCPCS release an organisation imports
// (docs/coding.md "Importing code sets"): CSV or tab-separated text, `code, short descriptor, long
// descriptor` (or `code, descriptor`), an optional header row. Every bad row is reported with its
// line number; the caller imports nothing unless there are none.

export type ImportSystem = "cpt" | "cdt" | "hcpcs";

export const CODE_PATTERNS: Record<ImportSystem, RegExp> = {
  // CPT: five digits, or four digits and F (category II), T (category III) or U (PLA).
  cpt: /^[0-9]{4}[0-9FTU]$/,
  // CDT: D and four digits.
  cdt: /^D[0-9]{4}$/,
  // HCPCS Level II: a letter and four digits.
  hcpcs: /^[A-V][0-9]{4}$/,
};

export const MAX_IMPORT_ROWS = 100_000;

export interface ImportRow {
  code: string;
  short: string;
  long: string;
}

export type RowErrorCode = "wrong_columns" | "bad_code" | "missing_descriptor" | "descriptor_too_long" | "duplicate_code";

export interface RowError {
  line: number;
  code: string | null;
  error: RowErrorCode;
}

export type ParseResult =
  | { ok: true; rows: ImportRow[]; errors: RowError[] }
  | { ok: false; fatal: "invalid_file" | "empty_file" | "too_many_rows" };

function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      out.push(field);
      field = "";
    } else field += c;
  }
  out.push(field);
  return out;
}

/** NUL and the C0 controls other than tab, line feed and carriage return (and form feeds, vertical tabs). */
function hasBinaryControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 32 && c !== 9 && c !== 10 && c !== 11 && c !== 12 && c !== 13) return true;
  }
  return false;
}

export function parseCodeFile(system: ImportSystem, bytes: Uint8Array): ParseResult {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, fatal: "invalid_file" };
  }
  // Binary content that happens to be valid UTF-8 (NUL, control characters) is not a code file.
  if (hasBinaryControl(text)) return { ok: false, fatal: "invalid_file" };
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const pattern = CODE_PATTERNS[system];
  const rows: ImportRow[] = [];
  const errors: RowError[] = [];
  const seen = new Set<string>();
  let dataLines = 0;
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (!raw.trim()) return;
    const cells = (raw.includes("\t") ? raw.split("\t") : splitCsvLine(raw)).map((c) => c.trim());
    // A header row: its first cell is not a code and names the column.
    if (
      dataLines === 0 &&
      rows.length === 0 &&
      errors.length === 0 &&
      /code/i.test(cells[0] ?? "") &&
      !pattern.test(cells[0] ?? "")
    )
      return;
    dataLines++;
    if (cells.length < 2 || cells.length > 3) {
      errors.push({ line, code: null, error: "wrong_columns" });
      return;
    }
    const code = (cells[0] ?? "").toUpperCase();
    const short = cells[1] ?? "";
    const long = cells.length === 3 ? (cells[2] ?? "") : short;
    if (!pattern.test(code)) errors.push({ line, code: code.slice(0, 20) || null, error: "bad_code" });
    else if (!short || !long) errors.push({ line, code, error: "missing_descriptor" });
    else if (long.length > 2000 || (cells.length === 3 && short.length > 200))
      errors.push({ line, code, error: "descriptor_too_long" });
    else if (seen.has(code)) errors.push({ line, code, error: "duplicate_code" });
    else {
      seen.add(code);
      rows.push({ code, short: short.slice(0, 200), long });
    }
  });
  if (dataLines > MAX_IMPORT_ROWS) return { ok: false, fatal: "too_many_rows" };
  if (dataLines === 0) return { ok: false, fatal: "empty_file" };
  return { ok: true, rows, errors };
}
