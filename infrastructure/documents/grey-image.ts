/**
 * A one-channel image, a byte a pixel, row by row. Its pixels are shared by every step that measures
 * the same encoded image (`greyImageOf`): a step that changes pixels works on a copy.
 */
export interface GreyImage {
  pixels: Buffer;
  width: number;
  height: number;
}

/**
 * The grey pixels of the encoded images a reading has already decoded or encoded. A page is measured
 * five or six times (rules, detection, the second reader, the O-or-0 width, glare), each a PNG decode
 * of some 8 ms at a card's size; an image's entry goes with the image.
 */
const decoded = new WeakMap<Buffer, GreyImage>();

/** An encoded image's grey pixels, as each step of a reading measures them (sharp's `b-w`). */
export async function greyImageOf(image: Buffer): Promise<GreyImage> {
  const known = decoded.get(image);
  if (known) return known;
  const sharp = (await import('sharp')).default;
  const { data, info } = await sharp(image).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  const grey = { pixels: data, width: info.width, height: info.height };
  decoded.set(image, grey);
  return grey;
}

/** Grey pixels encoded losslessly for the recognisers, which take an image file; their decode is known. */
export async function encodedGrey(grey: GreyImage): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  const image = await sharp(grey.pixels, { raw: { width: grey.width, height: grey.height, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  decoded.set(image, grey);
  return image;
}
