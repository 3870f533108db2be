import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";

const width = 4800;
const height = 3600;
// makeBibPhoto puts the bib between 45% and 73% of the height. 900 rows of noise make about
// 12.7 MiB: over the 10 MiB multipart threshold (three 5 MiB parts, the last one short) and over
// Golden Retriever's 10 MiB in-browser copy, and no bigger: every byte of noise costs CPU to make,
// send, store and decode (the two upload suites took 184 s side by side with a 30 MB photo, 143 s
// with this one, 2026-11-28).
const bands = [
  { top: 0, height: 600 },
  { top: 3300, height: 300 },
];
/**
 * The noise is made once per test process and handed to sharp as raw pixels: encoding megabytes of
 * random bytes as PNG only for sharp to decode them again cost a second of CPU per photo.
 */
const noise = bands.map((band) => ({
  input: randomBytes(width * band.height * 3),
  raw: { width, height: band.height, channels: 3 as const },
  top: band.top,
  left: 0,
}));

/**
 * A real JPEG above the multipart threshold (about 12.7 MiB): a 17 MP bib photo whose bands
 * above and below the bib are random noise, which JPEG cannot compress, so the file is big while
 * the bib stays as easy to read as in `makeBibPhoto`.
 */
export async function makeBigBibPhoto(bib: string): Promise<Buffer> {
  return sharp(await makeBibPhoto(bib, { width, height }))
    .composite(noise)
    .jpeg({ quality: 100, chromaSubsampling: "4:4:4" })
    .toBuffer();
}
