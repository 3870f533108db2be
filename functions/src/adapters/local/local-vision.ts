import { wearerRegion } from "@dorsal/shared";
import type { TextDetection, Vision } from "../../ports/vision";
import { createLocalFaceDetector, type LocalFaceDetector } from "./faces";
import { createLocalTextDetector } from "./ocr";
import { createSharedPixelPool, TEXT_SOURCE_LONG_SIDE, uprightPixels } from "./pixels";
import { facesOfUnwornNumbers } from "./wearer-faces";

/** The local engines behind the vision port: PaddleOCR for text, SSD MobileNet for faces. */
export async function createLocalVision(options: {
  workers?: number | undefined;
}): Promise<Vision & { faces: LocalFaceDetector }> {
  const [text, faces] = await Promise.all([
    createLocalTextDetector(options.workers ? { workers: options.workers } : {}),
    createLocalFaceDetector(),
  ]);
  const sharedPixels = createSharedPixelPool();
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
      const lease = sharedPixels.lease(await uprightPixels(image, TEXT_SOURCE_LONG_SIDE));
      const { pixels } = lease;
      const decoded = performance.now();
      try {
        // The photo's text regions are found while its faces are: on an idle machine, on both cores.
        const [found, coarse] = await Promise.all([timed(faces.detectFaces(pixels)), timed(text.findCoarse(pixels))]);
        // Small runners' bibs are detected again, closer, around them.
        const closerLook = found.value.map((face) => wearerRegion(face.box));
        const read = await timed(text.finish(pixels, coarse.value, { closerLook }));
        // Bibs read under no face: their wearers' faces, looked for closer.
        const wearers = await timed(facesOfUnwornNumbers(faces, pixels, read.value, found.value));
        return {
          text: atLeast(read.value, filters?.minConfidence),
          faces: [...found.value, ...wearers.value],
          ms: { decode: decoded - started, faces: found.ms + wearers.ms, text: coarse.ms + read.ms },
        };
      } finally {
        // After a failure a request may still be reading these pixels; the next photo's overwrite
        // only spoils an answer nobody awaits any more.
        lease.release();
      }
    },
    close: async () => {
      await Promise.all([text.close(), faces.close()]);
    },
  };
}

/** What a call returns and how long it took from now. */
async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
}
