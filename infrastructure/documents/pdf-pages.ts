import { boxAround, pageText } from '../../domain/documents/document-reading';
import type { PagePreview, ReadPage, ReadWord, UnreadPage } from '../../domain/documents/document-reading';
import { pagePreview } from './page-preview';
import type { DocumentReadingLimits, PageListener } from './reading-limits';

/** Renders a page to PNG bytes at the size recognition wants. */
export type PageRenderer = () => Promise<Buffer>;
export type PageRecogniser = (render: PageRenderer, pageNumber: number) => Promise<ReadPage>;

export type PdfPagesResult =
  | { pages: ReadPage[]; unread: UnreadPage[]; pageCount: number; previews: PagePreview[] }
  | { failure: string; pageCount: number };

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

/**
 * A PDF page by page, through pdf.js (Apache-2.0, via unpdf): the text layer where it reads as text,
 * and OCR of the rendered page where it does not (a scanned page, or glyphs without a Unicode mapping),
 * so a scanned page inside a text PDF is still read.
 */
export async function readPdfPages(
  bytes: Buffer,
  limits: DocumentReadingLimits,
  recognise: PageRecogniser,
  onPage: PageListener,
): Promise<PdfPagesResult> {
  const { getDocumentProxy, renderPageAsImage } = await import('unpdf');
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    document = await getDocumentProxy(new Uint8Array(bytes));
  } catch (error) {
    return { failure: pdfFailure(error), pageCount: 0 };
  }
  const pageCount = document.numPages;
  const pages: ReadPage[] = [];
  const unread: UnreadPage[] = [];
  const previews: PagePreview[] = [];
  let ocrPages = 0;
  const renderAt = (number: number, scale: number) => async () =>
    Buffer.from(
      await renderPageAsImage(document, number, { canvasImport: () => import('@napi-rs/canvas'), scale }),
    );
  try {
    for (let number = 1; number <= pageCount; number += 1) {
      if (number > limits.maxTextPages) {
        unread.push({ number, reason: `only the first ${limits.maxTextPages} pages of a PDF are read` });
        continue;
      }
      try {
        const page = await document.getPage(number);
        const viewport = page.getViewport({ scale: 1 });
        const content = await page.getTextContent();
        const textPage = pageFromText(content.items as TextItem[], number, viewport.width, viewport.height);
        const previewScale = limits.previewLongSide / Math.max(viewport.width, viewport.height);
        if (hasUsableText(textPage)) {
          pages.push(textPage);
          onPage(textPage);
          if (number <= limits.previewPages) {
            previews.push(await pagePreview(await renderAt(number, previewScale)(), number, limits));
          }
          continue;
        }
        if (ocrPages >= limits.maxOcrPages) {
          unread.push({
            number,
            reason: `only ${limits.maxOcrPages} scanned pages of a document are recognised`,
          });
          continue;
        }
        const scale = limits.ocrLongSide / Math.max(viewport.width, viewport.height);
        if (viewport.width * viewport.height * scale * scale > limits.maxInputPixels) {
          unread.push({ number, reason: 'the page is too large to render within the pixel limit' });
          continue;
        }
        ocrPages += 1;
        // Rendered once, for recognition and for the page's preview alike.
        let rendered: Promise<Buffer> | undefined;
        const render = () => (rendered ??= renderAt(number, scale)());
        const scanned = await recognise(render, number);
        pages.push(scanned);
        onPage(scanned);
        if (number <= limits.previewPages) previews.push(await pagePreview(await render(), number, limits));
      } catch {
        unread.push({ number, reason: 'the page could not be decoded' });
      }
    }
  } finally {
    await document.loadingTask.destroy();
  }
  return { pages, unread, pageCount, previews };
}

/** Words of a text layer, with boxes in points from the top left, grouped into lines by baseline. */
function pageFromText(items: TextItem[], number: number, width: number, height: number): ReadPage {
  const words: ReadWord[] = [];
  for (const item of items) {
    if (!item.str || !item.str.trim()) continue;
    const [, , , , x, y] = item.transform;
    const size = item.height || Math.abs(item.transform[3]) || 1;
    const top = height - y - size;
    const perChar = item.str.length > 0 ? item.width / item.str.length : 0;
    const pattern = /\S+/g;
    for (let match = pattern.exec(item.str); match; match = pattern.exec(item.str)) {
      words.push({
        text: match[0],
        confidence: 1,
        box: { left: x + match.index * perChar, top, width: match[0].length * perChar, height: size },
      });
    }
  }
  const lines = groupIntoLines(words);
  return { number, method: 'pdf_text', width, height, lines, confidence: words.length ? 1 : null };
}

function groupIntoLines(words: ReadWord[]): ReadPage['lines'] {
  const sorted = [...words].sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
  const lines: ReadWord[][] = [];
  for (const word of sorted) {
    const line = lines[lines.length - 1];
    const sameLine = line && Math.abs(line[0].box.top - word.box.top) <= Math.max(2, line[0].box.height / 2);
    if (sameLine) line.push(word);
    else lines.push([word]);
  }
  return lines.map((line) => {
    const ordered = line.sort((a, b) => a.box.left - b.box.left);
    return { words: ordered, box: boxAround(ordered.map((word) => word.box)) };
  });
}

/**
 * A text layer counts when it holds words a reader could use: at least a few letters, and not mostly
 * unmapped glyphs (`(cid:12)`, private-use or control characters, the replacement character).
 */
function hasUsableText(page: ReadPage): boolean {
  const text = pageText(page);
  if (/\(cid:\d+\)/.test(text)) return false;
  const letters = (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
  const garbage = (text.match(/[\p{Co}\uFFFD]|\p{Cc}(?<![\t\n\r])/gu) ?? []).length;
  return letters >= 3 && garbage < letters / 10;
}

function pdfFailure(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') return 'The PDF is protected by a password, so it could not be opened.';
  if (name === 'InvalidPDFException') return 'The PDF is truncated or corrupt, so it could not be opened.';
  return 'The PDF could not be opened (truncated, corrupt or of a kind the reader does not take).';
}
