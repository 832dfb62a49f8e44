/** A one-channel image, a byte a pixel, row by row. */
export interface GreyImage {
  pixels: Buffer;
  width: number;
  height: number;
}

/** An encoded image's grey pixels, as each step of a reading measures them (sharp's `b-w`). */
export async function greyImageOf(image: Buffer): Promise<GreyImage> {
  const sharp = (await import('sharp')).default;
  const { data, info } = await sharp(image).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}
