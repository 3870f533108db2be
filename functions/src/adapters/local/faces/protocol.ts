import type { BoundingBox, FaceDetection } from "../../../ports/vision";
import type { PhotoInput } from "../pixels";

/**
 * The engine works from pixels of at most this long side: plenty for its 512-px input. Pixels are
 * brought to it before they go to the worker, so a 3000-px decode is never copied across whole.
 */
export const FACE_WORKING_LONG_SIDE = 1024;

/**
 * Descriptors are cut from more pixels than detection needs: a runner's face in a 24 MP photo is
 * 30–60 px at 1024 px, and a blurred chip looks like anyone (bench:faces, docs/selfie-search.md).
 */
export const FACE_DESCRIBE_LONG_SIDE = 3000;

/** Given to the worker at start. */
export interface FaceEngineSettings {
  /** 0..100: weaker candidates are dropped. */
  minConfidence: number;
  maxFaces: number;
}

/**
 * Parent → worker: find the faces of one photo, or describe the given faces of it. The worker
 * answers in order, one request at a time.
 */
export type FaceRequest =
  | { type: "detect"; id: number; image: PhotoInput }
  | { type: "describe"; id: number; image: PhotoInput; boxes: BoundingBox[] };

/** Worker → parent, once per request. */
export type FaceReply =
  | { type: "faces"; id: number; faces: FaceDetection[] }
  | { type: "descriptors"; id: number; descriptors: Float32Array[] }
  | { type: "error"; id: number; message: string };

/** Worker → parent: "ready" once the model is loaded, then replies. */
export type FaceMessage = { type: "ready" } | FaceReply;
