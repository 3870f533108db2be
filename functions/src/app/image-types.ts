/** Identifies an image by its first bytes; the extension and the client's content type are only hints. */
export type ImageType = "jpeg" | "png" | "webp" | "tiff" | "bmp" | "gif" | "heic";

export const contentTypes: Record<ImageType, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  tiff: "image/tiff",
  bmp: "image/bmp",
  gif: "image/gif",
  heic: "image/heic",
};

/** Bytes `sniffImageType` needs to decide. */
export const sniffLength = 32;

export function sniffImageType(head: Buffer): ImageType | undefined {
  const ascii = (start: number, end: number) => head.subarray(start, end).toString("latin1");
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpeg";
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (ascii(0, 4) === "II*\u0000" || ascii(0, 4) === "MM\u0000*") return "tiff";
  if (ascii(0, 2) === "BM") return "bmp";
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return "gif";
  // ISO-BMFF: the `ftyp` box names the brand; these brands are HEIF/HEIC stills.
  if (ascii(4, 8) === "ftyp" && ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"].includes(ascii(8, 12))) {
    return "heic";
  }
  return undefined;
}
