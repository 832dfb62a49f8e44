import type { DocumentFormat } from './document-reading';

/**
 * The format a document's bytes show, whatever the sender declared: a photo sent as `application/pdf`
 * is read as the photo it is. Signatures are the ones each format's specification fixes at offset 0.
 */
export function detectDocumentFormat(bytes: Buffer): DocumentFormat {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  // II*\0 (little-endian) or MM\0* (big-endian); BigTIFF (43) is not read.
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'tiff';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  // A PDF's header may follow a little garbage; readers accept it within the first kilobyte.
  if (bytes.subarray(0, 1024).includes('%PDF-')) return 'pdf';
  if (isUtf8Text(bytes)) return 'text';
  return 'unknown';
}

/** What a format the reader does not take is, for the reason it gives (HEIC, Word, a ZIP…). */
export function describeUnknownFormat(bytes: Buffer): string {
  if (ascii(bytes, 4, 8) === 'ftyp') {
    const brand = ascii(bytes, 8, 12);
    if (/^(heic|heix|hevc|heim|heis|mif1|msf1)$/.test(brand)) return 'a HEIC/HEIF image';
    if (brand === 'avif') return 'an AVIF image';
    return 'an ISO media file';
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'a ZIP container (such as a Word .docx file)';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
    return 'an old Office file (such as Word .doc)';
  if (startsWith(bytes, [0x42, 0x4d])) return 'a BMP image';
  if (bytes.length === 0) return 'an empty file';
  return 'a file of a type the service does not read';
}

function startsWith(bytes: Buffer, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Buffer, start: number, end: number): string {
  return bytes.length >= end ? bytes.toString('latin1', start, end) : '';
}

/**
 * Text is valid UTF-8 without control characters other than whitespace: a binary file that happens to
 * decode is not text. An empty file is not text either.
 */
function isUtf8Text(bytes: Buffer): boolean {
  if (bytes.length === 0) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const whitespace = code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c;
    if ((code < 0x20 && !whitespace) || code === 0x7f) return false;
  }
  return true;
}
