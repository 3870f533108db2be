import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";

const width = 4800;
const height = 3600;
// makeBibPhoto puts the bib between 45% and 73% of the height.
const bands = [
  { top: 0, height: 1400 },
  { top: 2800, height: 800 },
];
/**
 * The noise is made once per test process and handed to sharp as raw pixels: encoding 20 MB of
 * random bytes as PNG only for sharp to decode them again cost a second of CPU per photo.
 */
const noise = bands.map((band) => ({
  input: randomBytes(width * band.height * 3),
  raw: { width, height: band.height, channels: 3 as const },
  top: band.top,
  left: 0,
}));

/**
 * A real JPEG well above the multipart threshold (about 30 MB): a 17 MP bib photo whose bands
 * above and below the bib are random noise, which JPEG cannot compress, so the file is big while
 * the bib stays as easy to read as in `makeBibPhoto`.
 */
export async function makeBigBibPhoto(bib: string): Promise<Buffer> {
  return sharp(await makeBibPhoto(bib, { width, height }))
    .composite(noise)
    .jpeg({ quality: 100, chromaSubsampling: "4:4:4" })
    .toBuffer();
}
