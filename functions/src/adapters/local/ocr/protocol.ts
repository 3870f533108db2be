import type { BoundingBox, TextDetection } from "../../../ports/vision";
import type { PhotoInput } from "../pixels";

/** Parent → worker: one photo; the worker handles one at a time. */
export interface OcrRequest {
  image: PhotoInput;
  closerLook?: BoundingBox[];
}

/** Worker → parent, once per request. */
export type OcrReply = { type: "result"; detections: TextDetection[] } | { type: "error"; message: string };

/** Worker → parent: "ready" once the models are loaded, then replies. */
export type OcrMessage = { type: "ready" } | OcrReply;
