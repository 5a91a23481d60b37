import { expect, it } from "vitest";
import { type ExportContext, toCsv } from "#app/services/coding/cases/export.server.ts";
import type { LineRow } from "#app/services/coding/cases/view.server.ts";

// Issue 25 probe: "the coding CSV's formula guard misses a leading TAB or CR". Spreadsheets strip
// leading whitespace before deciding a cell is a formula, so "\t=HYPERLINK(…)" runs too.
it("quotes a cell that starts with a tab or a carriage return as it quotes = + - @", () => {
  const line = (description: string, position: number) =>
    ({
      id: `l${position}`,
      position,
      kind: "diagnosis",
      system: "icd10cm",
      code: "Z72.0",
      description,
      state: "accepted",
      modifiers: [],
      units: 1,
      pointers: [],
      tooth: null,
      surfaces: null,
    }) as unknown as LineRow;
  const ctx: ExportContext = {
    caseId: "c",
    visitId: "v",
    visitDate: "2026-01-01",
    codedDate: null,
    patientId: "p",
    patientExternalId: "\t=cmd|' /C calc'!A0",
    clinicianId: null,
    clinicianName: "\r@SUM(1+1)",
    lines: [line('\t=HYPERLINK("http://evil")', 1), line("=1+1", 2), line("plain", 3)],
  };
  const csv = toCsv(ctx);
  const cells = csv.split("\r\n").slice(1, 4).join("\n");
  expect(cells).toContain(`"'\t=HYPERLINK(""http://evil"")"`);
  expect(cells).toContain(`"'\t=cmd|' /C calc'!A0"`);
  expect(cells).toContain(`"'\r@SUM(1+1)"`);
  expect(cells).toContain(`"'=1+1"`);
  expect(cells).toContain(",plain,");
});
