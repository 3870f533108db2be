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
    text,
    faces,
    close: async () => {
      await Promise.all([text.close(), faces.close()]);
    },
  };
}
