import type { BoundingBox, TextDetection } from "../../../ports/vision";
import type { PhotoInput, RawPixels } from "../pixels";
import type { Quad } from "./db-postprocess";
import type { RecognisedRegion } from "./detections";

/**
 * Parent → worker; the worker handles one at a time. `detect` is a photo's whole text; the others
 * are its steps (PaddleOcr's findCoarse, findFine, readRegions), which may run on different workers
 * with the same pixels.
 */
export type OcrRequest =
  | { kind: "detect"; image: PhotoInput; closerLook: BoundingBox[] }
  | { kind: "coarse"; image: RawPixels }
  | { kind: "fine"; image: RawPixels; coarse: Quad[]; closerLook: BoundingBox[] }
  | { kind: "read"; image: RawPixels; quads: Quad[] };

/** Worker → parent, once per request. */
export type OcrReply =
  | { type: "detections"; detections: TextDetection[] }
  | { type: "quads"; quads: Quad[] }
  | { type: "regions"; regions: (RecognisedRegion | null)[] }
  | { type: "error"; message: string };

/** Worker → parent: "ready" once the models are loaded, then replies. */
export type OcrMessage = { type: "ready" } | OcrReply;
