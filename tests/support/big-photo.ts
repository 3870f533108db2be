import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";

/**
 * A real JPEG well above the multipart threshold (about 20 MB): a 17 MP bib photo whose bands
 * above and below the bib are random noise, which JPEG cannot compress, so the file is big while
 * the bib stays as easy to read as in `makeBibPhoto`.
 */
export async function makeBigBibPhoto(bib: string): Promise<Buffer> {
  const width = 4800;
  const height = 3600;
  // makeBibPhoto puts the bib between 45% and 73% of the height.
  const bands = [
    { top: 0, height: 1400 },
    { top: 2800, height: 800 },
  ];
  const noise = await Promise.all(
    bands.map(async (band) => ({
      input: await sharp(randomBytes(width * band.height * 3), { raw: { width, height: band.height, channels: 3 } })
        .png()
        .toBuffer(),
      top: band.top,
      left: 0,
    })),
  );
  return sharp(await makeBibPhoto(bib, { width, height }))
    .composite(noise)
    .jpeg({ quality: 100, chromaSubsampling: "4:4:4" })
    .toBuffer();
}
