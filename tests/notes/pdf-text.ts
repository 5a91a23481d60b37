import { extractText, getDocumentProxy } from "unpdf";

/**
 * The text a reader of the PDF sees, page by page, read back through pdf.js: proof that the words are
 * really in the document (embedded font with its Unicode map), not only somewhere in its bytes.
 */
export async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: false });
  return text.map((page) => page.replace(/\s+/g, " "));
}
