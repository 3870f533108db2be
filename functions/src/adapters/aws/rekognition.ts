import {
  DetectFacesCommand,
  DetectTextCommand,
  type BoundingBox as RekognitionBox,
  type RekognitionClient,
} from "@aws-sdk/client-rekognition";
import sharp from "sharp";
import type {
  BoundingBox,
  FaceDetector,
  TextDetection,
  TextDetector,
  Vision,
  VisionEngineInfo,
} from "../../ports/vision";

/** Rekognition's limit on image bytes sent inline (Image.Bytes). */
export const REKOGNITION_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export interface RekognitionVisionOptions {
  /** Images above this are re-encoded smaller before sending. Default: Rekognition's 5 MB limit. */
  maxImageBytes?: number;
}

// Rekognition exposes no model version before a call; the API version at least pins the contract.
const INFO: VisionEngineInfo = { engine: "aws-rekognition", version: "2016-06-27" };
/** Quality for re-encoded photos: text stays sharp, size still drops a lot. */
const JPEG_QUALITY = 90;
/** Rekognition's minimum image dimension. */
const MIN_SIDE = 80;

/** The text and face ports over Rekognition's DetectText and DetectFaces, images sent inline. */
export function createRekognitionVision(
  client: RekognitionClient,
  options: RekognitionVisionOptions = {},
): Omit<Vision, "close"> {
  const maxBytes = options.maxImageBytes ?? REKOGNITION_MAX_IMAGE_BYTES;
  // Text and faces are usually asked of the same photo: prepare it once.
  const prepared = new WeakMap<Buffer, Promise<Uint8Array>>();
  const bytesFor = (image: Buffer) => {
    let bytes = prepared.get(image);
    if (!bytes) {
      bytes = prepareImage(image, maxBytes);
      prepared.set(image, bytes);
    }
    return bytes;
  };

  const text: TextDetector = {
    info: INFO,
    async detectText(image, filters) {
      const out = await client.send(
        new DetectTextCommand({
          Image: { Bytes: await bytesFor(image) },
          ...(filters?.minConfidence !== undefined
            ? { Filters: { WordFilter: { MinConfidence: filters.minConfidence } } }
            : {}),
        }),
      );
      return (out.TextDetections ?? []).flatMap((d): TextDetection[] => {
        const box = d.Geometry?.BoundingBox;
        if (!box || d.DetectedText === undefined || d.Id === undefined) return [];
        if (d.Type !== "LINE" && d.Type !== "WORD") return [];
        return [
          {
            type: d.Type,
            text: d.DetectedText,
            confidence: d.Confidence ?? 0,
            box: toBox(box),
            id: d.Id,
            ...(d.ParentId !== undefined ? { parentId: d.ParentId } : {}),
          },
        ];
      });
    },
  };
  const faces: FaceDetector = {
    info: INFO,
    async detectFaces(image) {
      const out = await client.send(new DetectFacesCommand({ Image: { Bytes: await bytesFor(image) } }));
      return (out.FaceDetails ?? []).flatMap((face) =>
        face.BoundingBox ? [{ confidence: face.Confidence ?? 0, box: toBox(face.BoundingBox) }] : [],
      );
    },
  };
  return {
    text,
    faces,
    // Rekognition decodes the bytes itself and reads the whole frame at its own resolution: both
    // calls go out at once.
    async readPhoto(image, filters) {
      const started = performance.now();
      const timed = async <T>(work: Promise<T>) => {
        const value = await work;
        return { value, ms: performance.now() - started };
      };
      const [found, detections] = await Promise.all([
        timed(faces.detectFaces(image)),
        timed(text.detectText(image, filters)),
      ]);
      return { text: detections.value, faces: found.value, ms: { decode: 0, text: detections.ms, faces: found.ms } };
    },
  };
}

/**
 * Sent as is when Rekognition can take it and boxes will refer to the upright photo; otherwise
 * re-encoded as an upright JPEG (EXIF orientation applied, as the port requires), shrunk until it
 * fits the byte limit.
 */
export async function prepareImage(image: Buffer, maxBytes: number): Promise<Uint8Array> {
  const meta = await sharp(image).metadata();
  const accepted = meta.format === "jpeg" || meta.format === "png";
  if (accepted && (meta.orientation ?? 1) === 1 && image.byteLength <= maxBytes) return image;
  let longSide = Math.max(meta.width ?? 0, meta.height ?? 0);
  for (;;) {
    const bytes = await sharp(image)
      .rotate()
      .resize({ width: longSide, height: longSide, fit: "inside", withoutEnlargement: true })
      .jpeg({ quality: JPEG_QUALITY })
      .toBuffer();
    if (bytes.byteLength <= maxBytes) return bytes;
    // JPEG size grows about with the pixel count; aim a little under the limit.
    longSide = Math.floor(longSide * Math.sqrt(maxBytes / bytes.byteLength) * 0.95);
    if (longSide < MIN_SIDE) throw new Error(`image cannot be made smaller than ${maxBytes} bytes for Rekognition`);
  }
}

/** Rekognition's boxes can reach past the image edge (faces cut by the frame); the port's stay inside. */
function toBox(box: RekognitionBox): BoundingBox {
  const left = Math.max(0, box.Left ?? 0);
  const top = Math.max(0, box.Top ?? 0);
  const right = Math.min(1, (box.Left ?? 0) + (box.Width ?? 0));
  const bottom = Math.min(1, (box.Top ?? 0) + (box.Height ?? 0));
  return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}
