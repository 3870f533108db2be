import type { Vision } from "../../ports/vision";
import { createLocalFaceDetector } from "./faces";
import { createLocalTextDetector } from "./ocr";

/** The local engines behind the vision port: PaddleOCR for text, SSD MobileNet for faces. */
export async function createLocalVision(options: { workers?: number | undefined }): Promise<Vision> {
  const [text, faces] = await Promise.all([
    createLocalTextDetector(options.workers ? { workers: options.workers } : {}),
    createLocalFaceDetector(),
  ]);
  return {
    text: {
      info: text.info,
      // The local engine always reads everything; the filter is applied to its answer, as Rekognition would.
      async detectText(image, filters) {
        const detections = await text.detectText(image);
        const floor = filters?.minConfidence;
        return floor === undefined ? detections : detections.filter((d) => d.confidence >= floor);
      },
    },
    faces,
    close: async () => {
      await Promise.all([text.close(), faces.close()]);
    },
  };
}
