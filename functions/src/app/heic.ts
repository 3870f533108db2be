import { photoFailureReasons } from "@dorsal/shared";
import { PermanentError } from "./errors";

/**
 * HEIC/HEIF (iPhone photos) decoded in-process: sharp's prebuilt libvips cannot read HEVC, so
 * libheif compiled to WASM (`heic-decode` → `libheif-js`, nothing native, nothing downloaded) turns
 * the primary image into RGBA pixels that sharp takes as raw input. libheif applies the HEIF
 * rotation and mirroring itself, so the pixels are already upright (no EXIF to apply afterwards).
 */

/**
 * Decoded HEIC lives whole in memory (4 bytes a pixel in JS, plus libheif's own planes in the WASM
 * heap while it decodes), so the limit is lower than sharp's: a 48 MP phone photo fits, more is refused.
 */
export const maxHeicPixels = 64_000_000;

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 4;
}

type HeicDecode = typeof import("heic-decode").default;

let decoder: Promise<HeicDecode> | undefined;
function loadDecoder(): Promise<HeicDecode> {
  // Loaded on first use: the WASM bundle is ~8 MB and only HEIC uploads need it.
  decoder ??= import("heic-decode").then((module) => module.default);
  return decoder;
}

/**
 * The primary (first top-level) image of a HEIC/HEIF file as upright RGBA pixels. Refuses, before
 * decoding, images over `maxHeicPixels`; an unreadable file is a `PermanentError` whose cause is
 * what libheif said.
 */
export async function decodeHeic(original: Buffer, maxPixels = maxHeicPixels): Promise<RawImage> {
  const heic = await loadDecoder();
  const images = await heic.all({ buffer: original }).catch((error: Error) => {
    throw new PermanentError(photoFailureReasons.unreadableHeic, { cause: error });
  });
  try {
    const [primary] = images;
    if (!primary) throw new PermanentError("La imagen HEIC no contiene ninguna foto");
    if (primary.width * primary.height > maxPixels) {
      throw new PermanentError(`La imagen HEIC es demasiado grande (${primary.width}×${primary.height})`);
    }
    const decoded = await primary.decode().catch((error: Error) => {
      throw new PermanentError(photoFailureReasons.unreadableHeic, { cause: error });
    });
    const data = Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
    return { data, width: decoded.width, height: decoded.height, channels: 4 };
  } finally {
    images.dispose();
  }
}
