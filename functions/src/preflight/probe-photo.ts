import sharp from "sharp";
import yazl from "yazl";

/**
 * A synthetic race photo: a runner-coloured background with a white bib carrying big dark print,
 * made on the fly, so tests never depend on real photos. The print is the bib as given: digits
 * ("4821") or a letter bib ("M10380"). With `portrait`, that head-and-shoulders photo stands just
 * above the bib, where a runner's face is, so the face stage finds a face and the bib hangs below
 * it as the wearer rule expects.
 */
export async function makeBibPhoto(
  bib: string,
  options: { width?: number; height?: number; portrait?: Buffer } = {},
): Promise<Buffer> {
  const width = options.width ?? 1600;
  const height = options.height ?? 1200;
  const bibHeight = Math.round(width * 0.35 * 0.6);
  const fontSize = Math.round(bibHeight * 0.6);
  // Up to four characters the bib keeps the size the digit tests were written against; longer
  // print (a letter and five digits) gets a bib wide enough to hold it, as printed bibs do.
  const bibWidth = bib.length <= 4 ? Math.round(width * 0.35) : Math.round(fontSize * (0.8 * bib.length + 0.4));
  const x = Math.round((width - bibWidth) / 2);
  const y = Math.round(height * 0.45);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#2f6db5"/>
    <rect x="${x}" y="${y}" width="${bibWidth}" height="${bibHeight}" rx="12" fill="#ffffff"/>
    <text x="${width / 2}" y="${y + bibHeight * 0.72}" font-family="DejaVu Sans" font-weight="bold"
      font-size="${fontSize}" text-anchor="middle" fill="#111111">${bib}</text>
  </svg>`;
  const photo = sharp(Buffer.from(svg));
  if (options.portrait) {
    const portraitWidth = Math.round(width * 0.3);
    const portrait = await sharp(options.portrait)
      .resize({ width: portraitWidth })
      .toBuffer({ resolveWithObject: true });
    photo.composite([
      {
        input: portrait.data,
        left: Math.round((width - portraitWidth) / 2),
        top: Math.max(0, y - portrait.info.height),
      },
    ]);
  }
  return photo.jpeg({ quality: 90 }).toBuffer();
}

/** A ZIP of one photo, as an organizer's archive would carry it, for the preflight's ZIP path. */
export async function zipOf(name: string, photo: Buffer): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(photo, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
