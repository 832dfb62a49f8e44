import type { PagePreview } from '../../domain/documents/document-reading';
import type { DocumentReadingLimits } from './reading-limits';

/** Enough to read a card's print on a reviewer's screen; a page of a few tens of kilobytes. */
const PREVIEW_QUALITY = 70;

/**
 * A page of an image (or a rendered PDF page) as a reviewer sees it: upright by its EXIF orientation,
 * at most `previewLongSide` pixels on its long side, on white, as a JPEG. Made in the reading thread,
 * so the API process only ever serves it.
 */
export async function pagePreview(
  image: Buffer,
  page: number,
  limits: DocumentReadingLimits,
  imagePage = 0,
): Promise<PagePreview> {
  const sharp = (await import('sharp')).default;
  const jpeg = await sharp(image, { page: imagePage, limitInputPixels: limits.maxInputPixels })
    .rotate()
    .resize({
      width: limits.previewLongSide,
      height: limits.previewLongSide,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: PREVIEW_QUALITY })
    .toBuffer();
  return { page, jpeg: jpeg.toString('base64') };
}
