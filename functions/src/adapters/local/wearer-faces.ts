import { wearerOf } from "@dorsal/shared";
import sharp from "sharp";
import type { FaceDetection, TextDetection } from "../../ports/vision";
import type { LocalFaceDetector } from "./faces";
import { sameFace } from "./faces/same-face";
import type { RawPixels } from "./pixels";

/**
 * How far above a number's bottom its wearer's face is looked for, in the number's heights. A bib's
 * digits are about half a face high and start two to three face heights below the chin, so ten of
 * their heights hold the face of a runner wearing it on the chest. The region is as wide, centred.
 */
const REGION_TEXT_HEIGHTS = 10;
/** Smaller regions are enlarged past what the face model gains from. */
const MIN_REGION_PX = 96;
/**
 * A start crowd has dozens of numbers under no face: the tallest are looked at, so a photo's cost
 * stays bounded (each region is one more face detection).
 */
const MAX_REGIONS = 8;

/**
 * The faces of runners wearing the photo's numbers that the whole-photo face pass missed. That pass
 * sees the photo at 512 px, where a distant runner's face is a few pixels, while the text engine
 * reads their bib from up to 3000 px: the bib then hangs under no face and the wearer rule drops it.
 * So the region above each number that hangs under none of `faces` is searched again for a face, at
 * the pixels the number was read from. Only when the photo has faces (without any, the wearer rule
 * does not apply), and only where the region is at most half the photo's long side, so it is seen
 * at least twice as close as the whole photo was. Returns the faces found that are not in `faces`.
 */
export async function facesOfUnwornNumbers(
  detector: Pick<LocalFaceDetector, "detectFaces">,
  pixels: RawPixels,
  text: readonly TextDetection[],
  faces: readonly FaceDetection[],
): Promise<FaceDetection[]> {
  if (faces.length === 0) return [];
  const longSide = Math.max(pixels.width, pixels.height);
  const unworn = text
    .filter((line) => line.type === "LINE" && /\d/.test(line.text) && !faces.some((f) => wearerOf(f.box, line.box)))
    .sort((a, b) => b.box.height - a.box.height)
    .slice(0, MAX_REGIONS);
  const found: FaceDetection[] = [];
  for (const number of unworn) {
    const side = Math.round(Math.max(MIN_REGION_PX, REGION_TEXT_HEIGHTS * number.box.height * pixels.height));
    if (side > longSide / 2 || side > Math.min(pixels.width, pixels.height)) continue;
    const centre = (number.box.left + number.box.width / 2) * pixels.width;
    const bottom = (number.box.top + number.box.height) * pixels.height;
    const left = Math.round(Math.min(Math.max(0, centre - side / 2), pixels.width - side));
    const top = Math.round(Math.min(Math.max(0, bottom - side), pixels.height - side));
    const region = await sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 3 } })
      .extract({ left, top, width: side, height: side })
      .raw()
      .toBuffer();
    for (const face of await detector.detectFaces({ data: new Uint8Array(region), width: side, height: side })) {
      const box = {
        left: (left + face.box.left * side) / pixels.width,
        top: (top + face.box.top * side) / pixels.height,
        width: (face.box.width * side) / pixels.width,
        height: (face.box.height * side) / pixels.height,
      };
      if (![...faces, ...found].some((other) => sameFace(other.box, box))) found.push({ ...face, box });
    }
  }
  return found;
}
