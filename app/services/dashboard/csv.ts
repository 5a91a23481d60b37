import type { DashboardData } from "./dashboard.server.ts";

// The dashboard's figures as CSV (issue 16 "CSV export of every figure"): one file per figure,
// machine-readable headers, days in the organisation's zone like the page.

export const CSV_FIGURES = ["series", "per_clinician", "summary"] as const;
export type CsvFigure = (typeof CSV_FIGURES)[number];

/**
 * One CSV field. Quoted when needed; a text starting like a formula (=, +, -, @, tab, CR) gets a
 * leading apostrophe so a spreadsheet shows it instead of running it (a member's name is user input).
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const lines = (rows: (string | number | null)[][]) => `${rows.map((r) => r.map(csvField).join(",")).join("\r\n")}\r\n`;

export function dashboardCsv(data: DashboardData, figure: CsvFigure): string {
  if (figure === "series") {
    return lines([
      ["date", "visits", "recorded_minutes", "notes_signed", "coding_coded", "coding_exported"],
      ...(data.series ?? []).map((d) => [
        d.date,
        d.visits,
        d.recorded_minutes,
        d.notes_signed,
        d.coding_coded,
        d.coding_exported,
      ]),
    ]);
  }
  if (figure === "per_clinician") {
    const names = new Map(data.clinicians.map((c) => [c.id, c.label]));
    return lines([
      ["clinician_id", "clinician", "visits", "recorded_minutes", "notes_signed", "coding_coded", "coding_exported"],
      ...(data.per_clinician ?? []).map((c) => [
        c.clinician_id,
        c.clinician_id ? (names.get(c.clinician_id) ?? null) : null,
        c.visits,
        c.recorded_minutes,
        c.notes_signed,
        c.coding_coded,
        c.coding_exported,
      ]),
    ]);
  }
  const today = data.today ? Object.entries(data.today.by_status).map(([k, v]) => [`today.${k}`, v]) : [];
  return lines([
    ["figure", "value"],
    ["range.from", data.range.from],
    ["range.to", data.range.to],
    ["range.timezone", data.range.timezone],
    ...today,
    ["queues.drafts_to_sign", data.queues.drafts_to_sign?.count ?? null],
    ["queues.failed_transcriptions", data.queues.failed_transcriptions?.count ?? null],
    ["queues.invitations_pending", data.queues.invitations_pending],
    ["queues.coding_open", data.queues.coding_open?.count ?? null],
    ["medians.stop_to_draft_s", data.medians.stop_to_draft_s],
    ["medians.draft_to_signed_s", data.medians.draft_to_signed_s],
    ...Object.entries(data.plan).map(([k, v]) => [`plan.${k}`, v]),
  ]);
}
