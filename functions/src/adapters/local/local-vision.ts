import type { Vision } from "../../ports/vision";
import { createLocalTextDetector } from "./ocr";

/** The local engines behind the vision port: PaddleOCR for text, and the local face detector. */
export async function createLocalVision(options: { workers?: number | undefined }): Promise<Vision> {
  const text = await createLocalTextDetector(options.workers ? { workers: options.workers } : {});
  return {
    text,
    faces: { info: { engine: "none", version: "0" }, detectFaces: async () => [] },
    close: () => text.close(),
  };
}
