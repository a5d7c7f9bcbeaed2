import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * Reads PDFs in tests with pdfjs-dist (no poppler-utils): page count, document info, the text
 * of every page (runs joined with spaces, whitespace squashed), and pages drawn to PNG in-process
 * with @napi-rs/canvas where a test needs a picture.
 */
export async function readPdf(bytes: Uint8Array): Promise<{
  pages: number;
  info: { Title?: string; Author?: string; Creator?: string };
  text: string;
  /** Each page's text, whitespace squashed. */
  pageTexts: string[];
}> {
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  try {
    const { info } = (await doc.getMetadata()) as {
      info: { Title?: string; Author?: string; Creator?: string };
    };
    const texts: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      texts.push(
        content.items.map((item) => ('str' in item ? `${item.str}${item.hasEOL ? ' ' : ''}` : '')).join(' '),
      );
    }
    const squash = (t: string) => t.replace(/\s+/g, ' ');
    return { pages: doc.numPages, info, text: squash(texts.join(' ')), pageTexts: texts.map(squash) };
  } finally {
    await doc.destroy();
  }
}

/** One page as a PNG (scale 1 = 72 dpi). */
export async function renderPdfPage(bytes: Uint8Array, pageNumber = 1, scale = 0.75): Promise<Buffer> {
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  try {
    const page = await doc.getPage(pageNumber);
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    await page.render({ canvas: canvas as never, canvasContext: canvas.getContext('2d') as never, viewport })
      .promise;
    return canvas.toBuffer('image/png');
  } finally {
    await doc.destroy();
  }
}
