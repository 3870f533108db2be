import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * A PDF's text as a reader's copy would give it, one string per line, pages in order: what
 * pdf.js (the parser Firefox and many viewers use) extracts, so the report is checked as it is
 * read, not as it was written.
 */
export async function pdfLines(bytes: Uint8Array): Promise<string[]> {
  // pdf.js takes over the array it is given: a copy leaves the caller's bytes whole.
  const document = await getDocument({ data: bytes.slice(), verbosity: VerbosityLevel.ERRORS }).promise;
  try {
    const lines: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      let current = "";
      for (const item of content.items) {
        if (!("str" in item)) continue;
        current += item.str;
        if (item.hasEOL) {
          lines.push(current.trim());
          current = "";
        }
      }
      if (current.trim()) lines.push(current.trim());
    }
    return lines.filter((line) => line !== "");
  } finally {
    await document.destroy();
  }
}
