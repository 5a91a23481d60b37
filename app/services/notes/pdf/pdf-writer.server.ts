// A minimal PDF 1.4 writer for text documents (no PDF library is installed): A4 pages,
// Helvetica and Helvetica-Bold (standard fonts every reader has, WinAnsi encoding covers
// English, French and Spanish), word wrap measured with Helvetica's metrics.

export interface PdfLine {
  text: string;
  bold?: boolean;
  size?: number;
  /** Space before the line, in points. */
  gap?: number;
  indent?: number;
}

const PAGE = { width: 595.28, height: 841.89, margin: 56 };

// Helvetica advance widths (1/1000 em) for ASCII 32–126, from the standard AFM.
const WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556,
  556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778,
  722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222,
  500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

// Characters outside Latin-1 that WinAnsi still has (typographic quotes, dashes, bullet…).
const WIN_ANSI: Record<string, number> = {
  "€": 0x80,
  "‚": 0x82,
  "„": 0x84,
  "…": 0x85,
  "‘": 0x91,
  "’": 0x92,
  "“": 0x93,
  "”": 0x94,
  "•": 0x95,
  "–": 0x96,
  "—": 0x97,
  "™": 0x99,
  œ: 0x9c,
  Œ: 0x8c,
  Ÿ: 0x9f,
};

function charWidth(ch: string, bold: boolean): number {
  const code = ch.charCodeAt(0);
  let w = code >= 32 && code <= 126 ? (WIDTHS[code - 32] ?? 556) : 0;
  if (!w) {
    // Accented letters are as wide as their base letter; anything else as a digit.
    const base = ch.normalize("NFD")[0] ?? "";
    const b = base.charCodeAt(0);
    w = b >= 32 && b <= 126 ? (WIDTHS[b - 32] ?? 556) : 556;
  }
  return bold ? w * 1.06 : w;
}

export function textWidth(text: string, size: number, bold = false): number {
  let total = 0;
  for (const ch of text) total += charWidth(ch, bold);
  return (total * size) / 1000;
}

/** Words onto lines no wider than `width` (a word longer than a line is cut). */
export function wrap(text: string, width: number, size: number, bold = false): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (textWidth(candidate, size, bold) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (textWidth(rest, size, bold) > width) {
      let cut = rest.length - 1;
      while (cut > 1 && textWidth(rest.slice(0, cut), size, bold) > width) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

/** A PDF string literal in WinAnsi bytes: unknown characters become "?". */
function pdfString(text: string): string {
  let out = "(";
  for (const ch of text.normalize("NFC")) {
    const code = WIN_ANSI[ch] ?? ch.charCodeAt(0);
    if (ch === "(" || ch === ")" || ch === "\\") out += `\\${ch}`;
    else if (code >= 32 && code <= 126) out += ch;
    else if (code <= 255 && code >= 128) out += `\\${code.toString(8).padStart(3, "0")}`;
    else out += "?";
  }
  return `${out})`;
}

/** The document's bytes: lines flow top to bottom, wrapped, onto as many pages as needed. */
export function renderPdf(lines: readonly PdfLine[], meta: { title: string }): Uint8Array<ArrayBuffer> {
  const usable = PAGE.width - 2 * PAGE.margin;
  const pages: string[][] = [[]];
  let y = PAGE.height - PAGE.margin;
  for (const line of lines) {
    const size = line.size ?? 10.5;
    const leading = size * 1.35;
    const indent = line.indent ?? 0;
    const wrapped = line.text ? wrap(line.text, usable - indent, size, line.bold) : [""];
    y -= line.gap ?? 0;
    for (const piece of wrapped) {
      if (y - leading < PAGE.margin) {
        pages.push([]);
        y = PAGE.height - PAGE.margin;
      }
      y -= leading;
      const font = line.bold ? "F2" : "F1";
      pages
        .at(-1)
        ?.push(`BT /${font} ${size} Tf ${(PAGE.margin + indent).toFixed(2)} ${y.toFixed(2)} Td ${pdfString(piece)} Tj ET`);
    }
  }

  const objects: string[] = [];
  const add = (body: string) => objects.push(body) - 1 + 1;
  const catalog = add("");
  const pagesObj = add("");
  const regular = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const bold = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  const info = add(`<< /Title ${pdfString(meta.title)} /Producer (Murmur) >>`);
  const kids: number[] = [];
  for (const ops of pages) {
    const stream = ops.join("\n");
    const content = add(`<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] ` +
          `/Resources << /Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;

  let out = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(Buffer.from(out, "latin1"));
}
