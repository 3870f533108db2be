import { InferenceSession, Tensor } from "onnxruntime-node";
import sharp from "sharp";
import type { BoundingBox, FaceDetection } from "../../../ports/vision";
import { type PhotoInput, type RawPixels, uprightPixels } from "../pixels";
import { DESCRIPTOR_LENGTH, FACERES_INPUT, FACERES_INPUT_SIZE, FACERES_OUTPUT } from "./faceres";
import { FACE_DESCRIBE_LONG_SIDE, FACE_WORKING_LONG_SIDE, type FaceEngineSettings } from "./protocol";
import { sameFace } from "./same-face";
import { decodeFaces, SSD_BOXES, SSD_CLASSES, SSD_INPUT, SSD_INPUT_SIZE, type SsdModel } from "./ssd-mobilenet";

/**
 * "fill" stretches the photo over the square, as the TF Object Detection API trained the model;
 * "inside" keeps its proportions in the top-left corner, as face-api feeds it. Each finds faces the
 * other misses, mostly different ones: on the RBNR photos, recall of the labelled faces at
 * confidence 60 was 0.90 with "fill" alone, 0.92 with "inside" alone and 0.97 with both.
 */
const VIEWS = ["fill", "inside"] as const;

/**
 * The square cut around a detected face, as a multiple of the box's longer side. Human feeds FaceRes
 * its own detector's (BlazeFace's) box enlarged 1.4 times; on this SSD's boxes, swept on the RBNR
 * photos: 1.0 → recall 0.62 at precision ≥ 0.95, 1.2 → 0.69, 1.4 → 0.64, 1.7 → 0.59
 * (docs/selfie-search.md).
 */
export const FACE_CHIP_MARGIN = 1.2;

export interface FaceEngine {
  detectFaces(image: PhotoInput): Promise<FaceDetection[]>;
  /** One L2-normalised descriptor per box, in the boxes' order. */
  describeFaces(image: PhotoInput, boxes: BoundingBox[]): Promise<Float32Array[]>;
}

export interface FaceModels {
  /** SSD MobileNet as ONNX, with its anchors (prepared-models.ts). */
  detector: SsdModel;
  /** FaceRes as ONNX; asked for on the first description only. */
  describer: () => Promise<Uint8Array>;
}

// One intra-op thread: faces take one core and leave the others to the OCR workers.
const SESSION_OPTIONS: InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: "sequential",
  graphOptimizationLevel: "all",
};

export async function loadFaceEngine(models: FaceModels, settings: FaceEngineSettings): Promise<FaceEngine> {
  const { onnx, anchors } = models.detector;
  const session = await InferenceSession.create(onnx, SESSION_OPTIONS);
  // The recognition net is loaded on first use: an install that never searches by selfie never pays for it.
  let recognition: Promise<InferenceSession> | undefined;
  const recognitionSession = () => {
    recognition ??= models.describer().then((model) => InferenceSession.create(model, SESSION_OPTIONS));
    return recognition;
  };

  return {
    async detectFaces(image) {
      // Both views are resized from these pixels (the parent has usually brought them to this size).
      const photo = await uprightPixels(image, FACE_WORKING_LONG_SIDE);
      const faces: FaceDetection[] = [];
      for (const view of VIEWS)
        faces.push(...(await detectInView(session, anchors, photo, view, settings.minConfidence)));
      return keepStrongest(faces, settings.maxFaces);
    },
    async describeFaces(image, boxes) {
      if (boxes.length === 0) return [];
      const net = await recognitionSession();
      const photo = await uprightPixels(image, FACE_DESCRIBE_LONG_SIDE);
      const descriptors: Float32Array[] = [];
      for (const box of boxes) {
        const chip = await faceChip(photo, box);
        const output = await net.run({ [FACERES_INPUT]: chip });
        descriptors.push(l2Normalised((output[FACERES_OUTPUT] as Tensor).data as Float32Array));
      }
      return descriptors;
    },
  };
}

/**
 * The square around the face, scaled to the net's input; what lies outside the photo is black.
 * Returned as the net's planar input, values 0–255.
 */
async function faceChip(photo: RawPixels, box: BoundingBox): Promise<Tensor> {
  const size = FACERES_INPUT_SIZE;
  const side = Math.max(box.width * photo.width, box.height * photo.height) * FACE_CHIP_MARGIN;
  const x0 = (box.left + box.width / 2) * photo.width - side / 2;
  const y0 = (box.top + box.height / 2) * photo.height - side / 2;
  const scale = size / side;
  const left = Math.max(0, Math.floor(x0));
  const top = Math.max(0, Math.floor(y0));
  const right = Math.min(photo.width, Math.ceil(x0 + side));
  const bottom = Math.min(photo.height, Math.ceil(y0 + side));
  if (right - left < 1 || bottom - top < 1) throw new Error("face box lies outside the photo");
  const place = (from: number, origin: number) => Math.min(size - 1, Math.max(0, Math.round((from - origin) * scale)));
  const ox = place(left, x0);
  const oy = place(top, y0);
  const ow = Math.max(1, Math.min(size - ox, Math.round((right - x0) * scale) - ox));
  const oh = Math.max(1, Math.min(size - oy, Math.round((bottom - y0) * scale) - oy));
  const { data } = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } })
    .extract({ left, top, width: right - left, height: bottom - top })
    .resize(ow, oh, { fit: "fill" })
    .extend({ top: oy, left: ox, bottom: size - oy - oh, right: size - ox - ow, background: "black" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = size * size;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) input[c * plane + i] = data[i * 3 + c] as number;
  return new Tensor("float32", input, [1, 3, size, size]);
}

function l2Normalised(values: Float32Array): Float32Array {
  const out = new Float32Array(DESCRIPTOR_LENGTH);
  let sum = 0;
  for (let i = 0; i < DESCRIPTOR_LENGTH; i++) sum += (values[i] as number) ** 2;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < DESCRIPTOR_LENGTH; i++) out[i] = (values[i] as number) / norm;
  return out;
}

async function detectInView(
  session: InferenceSession,
  anchors: Float32Array,
  photo: RawPixels,
  view: (typeof VIEWS)[number],
  minConfidence: number,
): Promise<FaceDetection[]> {
  const size = SSD_INPUT_SIZE;
  const { data, info } = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } })
    .resize(size, size, { fit: view })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = size * size;
  // -1 is black after the model's (x / 127.5 - 1) scaling: the zero padding face-api letterboxes with.
  const input = new Float32Array(3 * plane).fill(-1);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const src = (y * info.width + x) * 3;
      const dst = y * size + x;
      for (let c = 0; c < 3; c++) input[c * plane + dst] = (data[src + c] as number) / 127.5 - 1;
    }
  }
  const output = await session.run({ [SSD_INPUT]: new Tensor("float32", input, [1, 3, size, size]) });
  const candidates = decodeFaces(
    (output[SSD_BOXES] as Tensor).data as Float32Array,
    (output[SSD_CLASSES] as Tensor).data as Float32Array,
    anchors,
    minConfidence / 100,
  );
  // Boxes are fractions of the square; the photo covers its top-left width × height.
  const sx = size / info.width;
  const sy = size / info.height;
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return candidates
    .map((face) => {
      const left = clamp(face.left * sx);
      const top = clamp(face.top * sy);
      return {
        confidence: face.score * 100,
        box: { left, top, width: clamp(face.right * sx) - left, height: clamp(face.bottom * sy) - top },
      };
    })
    .filter(({ box }) => box.width > 0 && box.height > 0);
}

/** Greedy non-maximum suppression: the strongest box of each overlapping group stands for the face. */
function keepStrongest(faces: FaceDetection[], maxFaces: number): FaceDetection[] {
  const kept: FaceDetection[] = [];
  for (const face of [...faces].sort((a, b) => b.confidence - a.confidence)) {
    if (kept.length >= maxFaces) break;
    if (!kept.some((other) => sameFace(other.box, face.box))) kept.push(face);
  }
  return kept;
}
