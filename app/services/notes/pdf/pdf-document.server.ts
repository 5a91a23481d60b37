import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import PDFDocument from "pdfkit";

// The note's PDF layout (ADR 15): pdfkit lays the text out (wrapping, page breaks, kerning) in
// DejaVu Sans, embedded and subset, so every French and Spanish letter prints whatever the reader
// has installed; fontkit writes a ToUnicode map, so the text stays searchable and copyable.

export interface PdfBlock {
  title?: string;
  lines: string[];
}

export interface PdfNote {
  /** The practice's name, printed as the letterhead and in every page's footer. */
  practice: string;
  title: string;
  /** Label/value rows under the title (patient, visit, status). */
  facts: { label: string; value: string; tone?: "ok" | "warn" }[];
  blocks: PdfBlock[];
  /** The signature block, or a single bold line when the note is not signed. */
  signature: { title: string; lines: string[]; hash?: string } | { unsigned: string };
  /** "Page {{n}} of {{m}}" in the note's language. */
  pageLabel: (n: number, m: number) => string;
  language: string;
}

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | undefined;
export function loadFonts(): { regular: Buffer; bold: Buffer } {
  fonts ??= {
    regular: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")),
    bold: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf")),
  };
  return fonts;
}

const MARGIN = 56;
const INK = "#1f2933";
const MUTED = "#52606d";
const RULE = "#c3cfd9";
const TONES = { ok: "#1e6b3a", warn: "#8a4b00" } as const;

export async function renderNotePdf(note: PdfNote): Promise<Uint8Array<ArrayBuffer>> {
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    size: "A4",
    // The version readers and the e2e suite have always been given; nothing here needs a later one.
    pdfVersion: "1.4",
    margins: { top: MARGIN, bottom: MARGIN + 18, left: MARGIN, right: MARGIN },
    bufferPages: true,
    lang: note.language,
    displayTitle: true,
    info: { Title: note.title, Author: note.practice, Producer: "Murmur", Creator: "Murmur" },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  doc.registerFont("body", regular);
  doc.registerFont("bold", bold);
  const width = doc.page.width - MARGIN * 2;

  // Letterhead: the practice's name over a rule.
  doc.font("bold").fontSize(15).fillColor(INK).text(note.practice, { width });
  const ruleY = doc.y + 4;
  doc
    .moveTo(MARGIN, ruleY)
    .lineTo(MARGIN + width, ruleY)
    .lineWidth(0.75)
    .strokeColor(RULE)
    .stroke();
  doc.y = ruleY + 14;

  doc.font("bold").fontSize(18).fillColor(INK).text(note.title, { width });
  doc.moveDown(0.4);
  for (const fact of note.facts) {
    doc.font("bold").fontSize(10).fillColor(MUTED).text(`${fact.label}: `, { continued: true });
    doc
      .font(fact.tone ? "bold" : "body")
      .fillColor(fact.tone ? TONES[fact.tone] : INK)
      .text(fact.value);
  }

  for (const block of note.blocks) {
    doc.moveDown(0.9);
    if (block.title) {
      // A heading never ends a page alone: it goes to the next one with its first lines.
      if (doc.y > doc.page.height - doc.page.margins.bottom - 48) doc.addPage();
      // From the margin: a bullet of the previous block left the cursor indented.
      doc.font("bold").fontSize(12).fillColor(INK).text(block.title, MARGIN, undefined, { width });
      doc.moveDown(0.2);
    }
    doc.font("body").fontSize(10.5).fillColor(INK);
    for (const line of block.lines) {
      const bullet = /^\s*[-•]\s+/.exec(line);
      if (bullet) doc.text(`•  ${line.slice(bullet[0].length)}`, MARGIN + 10, undefined, { width: width - 10, lineGap: 1.5 });
      else doc.text(line === "" ? " " : line, MARGIN, undefined, { width, lineGap: 1.5 });
    }
  }

  doc.moveDown(1.4);
  if ("unsigned" in note.signature) {
    doc.font("bold").fontSize(11).fillColor(TONES.warn).text(note.signature.unsigned, MARGIN, undefined, { width });
  } else {
    doc.font("bold").fontSize(12).fillColor(INK).text(note.signature.title, MARGIN, undefined, { width });
    doc.moveDown(0.2);
    doc.font("body").fontSize(9.5).fillColor(INK);
    for (const line of note.signature.lines) doc.text(line, { width });
    if (note.signature.hash) doc.font("body").fontSize(8.5).fillColor(MUTED).text(note.signature.hash, { width });
  }

  // Footers once every page exists, so "of m" is known. The bottom margin is lifted while
  // writing below it, or pdfkit would start a new page.
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN;
    doc
      .moveTo(MARGIN, y - 6)
      .lineTo(MARGIN + width, y - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.font("body").fontSize(8.5).fillColor(MUTED);
    doc.text(note.practice, MARGIN, y, { width: width * 0.65, lineBreak: false, ellipsis: true });
    doc.text(note.pageLabel(i + 1, range.count), MARGIN, y, { width, align: "right", lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  await done;
  const out = Buffer.concat(chunks);
  const bytes = new Uint8Array(new ArrayBuffer(out.byteLength));
  bytes.set(out);
  return bytes;
}
