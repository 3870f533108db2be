import { wearerRegion } from "@dorsal/shared";
import type { TextDetection, Vision } from "../../ports/vision";
import { createLocalFaceDetector } from "./faces";
import { createLocalTextDetector } from "./ocr";
import { TEXT_SOURCE_LONG_SIDE, uprightPixels } from "./pixels";

/** The local engines behind the vision port: PaddleOCR for text, SSD MobileNet for faces. */
export async function createLocalVision(options: { workers?: number | undefined }): Promise<Vision> {
  const [text, faces] = await Promise.all([
    createLocalTextDetector(options.workers ? { workers: options.workers } : {}),
    createLocalFaceDetector(),
  ]);
  // The local engine always reads everything; the filter is applied to its answer, as Rekognition would.
  const atLeast = (detections: TextDetection[], floor: number | undefined) =>
    floor === undefined ? detections : detections.filter((d) => d.confidence >= floor);
  return {
    text: {
      info: text.info,
      async detectText(image, filters) {
        return atLeast(await text.detectText(image, filters), filters?.minConfidence);
      },
    },
    faces,
    async readPhoto(image, filters) {
      const started = performance.now();
      const pixels = await uprightPixels(image, TEXT_SOURCE_LONG_SIDE);
      const decoded = performance.now();
      const found = await faces.detectFaces(pixels);
      const facesDone = performance.now();
      // Small runners' bibs are read again from the full-resolution pixels around them.
      const detections = await text.detectText(pixels, { closerLook: found.map((face) => wearerRegion(face.box)) });
      return {
        text: atLeast(detections, filters?.minConfidence),
        faces: found,
        ms: { decode: decoded - started, faces: facesDone - decoded, text: performance.now() - facesDone },
      };
    },
    close: async () => {
      await Promise.all([text.close(), faces.close()]);
    },
  };
}
