import sharp from "sharp";
import { embeddedProfileIsSrgb } from "../../app/color-profile";

/**
 * The text engine reads from at most this many pixels on the long side: crops for recognition are cut
 * from them, so small text reads better than at the detector's size; a 24 MP photo would not fit.
 */
export const TEXT_SOURCE_LONG_SIDE = 3000;

/** A photo already decoded: upright (EXIF orientation applied), 3-channel sRGB, row-major. */
export interface RawPixels {
  data: Uint8Array;
  width: number;
  height: number;
}

/** What the local engines accept: encoded bytes (JPEG, PNG, WebP…) or pixels decoded once for all. */
export type PhotoInput = Uint8Array | RawPixels;

/**
 * Upright sRGB pixels of at most `longSide` px. JPEG shrink-on-load makes a 24 MP decode to 3000 px
 * cheap; pixels that already fit are returned as they are, not copied.
 */
export async function uprightPixels(input: PhotoInput, longSide: number): Promise<RawPixels> {
  if (!(input instanceof Uint8Array) && Math.max(input.width, input.height) <= longSide) return input;
  const image =
    input instanceof Uint8Array
      ? // An sRGB profile needs no conversion to sRGB, which would cost most of the decode.
        sharp(input, { ignoreIcc: embeddedProfileIsSrgb((await sharp(input).metadata()).icc) }).rotate()
      : sharp(input.data, { raw: { width: input.width, height: input.height, channels: 3 } });
  const { data, info } = await image
    .resize({ width: longSide, height: longSide, fit: "inside", withoutEnlargement: true })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A private copy a worker can take over without detaching the caller's buffer. */
export function transferableCopy(input: PhotoInput): { photo: PhotoInput; transfer: ArrayBuffer } {
  const data = new Uint8Array(input instanceof Uint8Array ? input : input.data);
  const photo = input instanceof Uint8Array ? data : { data, width: input.width, height: input.height };
  return { photo, transfer: data.buffer };
}

/** Pixels in shared memory, and what gives the memory back once no engine reads them. */
export interface SharedPixelsLease {
  pixels: RawPixels;
  release(): void;
}

/**
 * Shared memory for decoded photos, reused from one photo to the next. Every worker reads a photo's
 * pixels from one copy in shared memory (a 3000-px photo is 20 MB, read by up to three engine calls).
 * A SharedArrayBuffer is freed only once every thread that saw it has collected it, and worker
 * threads collect rarely: fresh buffers a photo piled up as ~300 MB of garbage in a ZIP import, the
 * runtime's peak (docs/benchmarks.md). Reused, they stay a few buffers for good.
 */
export function createSharedPixelPool(kept = 4): { lease(pixels: RawPixels): SharedPixelsLease } {
  /** Smallest first. */
  const free: SharedArrayBuffer[] = [];
  return {
    lease(pixels) {
      const needed = pixels.data.byteLength;
      // The smallest free buffer that fits, so a small photo does not take a big one.
      const fits = free.findIndex((buffer) => buffer.byteLength >= needed);
      const buffer = fits >= 0 ? (free.splice(fits, 1)[0] as SharedArrayBuffer) : new SharedArrayBuffer(needed);
      const data = new Uint8Array(buffer, 0, needed);
      data.set(pixels.data);
      let released = false;
      return {
        pixels: { data, width: pixels.width, height: pixels.height },
        release() {
          if (released) return;
          released = true;
          free.push(buffer);
          free.sort((a, b) => a.byteLength - b.byteLength);
          // Beyond `kept`, the smallest goes: the big ones are the ones worth keeping.
          if (free.length > kept) free.shift();
        },
      };
    },
  };
}
