import PDFDocument from "pdfkit";
import { loadFonts } from "./pdf-document.server.ts";

// A plain text document (lines with a size, weight, indent and gap) in the same fonts and page
// as the note PDF (ADR 15): the periodontal chart's clinic and patient copies use it.

export interface PdfLine {
  text: string;
  bold?: boolean;
  size?: number;
  /** Space before the line, in points. */
  gap?: number;
  indent?: number;
}

const MARGIN = 56;

export async function renderLinesPdf(
  lines: readonly PdfLine[],
  meta: { title: string; language: string },
): Promise<Uint8Array<ArrayBuffer>> {
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    size: "A4",
    pdfVersion: "1.4",
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    lang: meta.language,
    displayTitle: true,
    info: { Title: meta.title, Producer: "Murmur", Creator: "Murmur" },
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
  for (const line of lines) {
    if (line.gap) doc.y += line.gap;
    const indent = line.indent ?? 0;
    doc
      .font(line.bold ? "bold" : "body")
      .fontSize(line.size ?? 10.5)
      .fillColor("#1f2933")
      .text(line.text, MARGIN + indent, doc.y, { width: width - indent });
  }
  doc.end();
  await done;
  const out = Buffer.concat(chunks);
  return new Uint8Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength)) as Uint8Array<ArrayBuffer>;
}
