import { InferenceSession, Tensor } from "onnxruntime-node";
import sharp from "sharp";
import type { BoundingBox, FaceDetection } from "../../../ports/vision";
import { type PhotoInput, type RawPixels, uprightPixels } from "../pixels";
import { FACE_WORKING_LONG_SIDE, type FaceEngineSettings } from "./protocol";
import { decodeFaces, loadSsdMobilenet, SSD_BOXES, SSD_CLASSES, SSD_INPUT, SSD_INPUT_SIZE } from "./ssd-mobilenet";

/**
 * The two views find most faces twice with slightly different boxes; above this overlap two boxes
 * are one face. Faces in a crowd rarely overlap this much.
 */
const SAME_FACE_IOU = 0.3;

/**
 * "fill" stretches the photo over the square, as the TF Object Detection API trained the model;
 * "inside" keeps its proportions in the top-left corner, as face-api feeds it. Each finds faces the
 * other misses, mostly different ones: on the RBNR photos, recall of the labelled faces at
 * confidence 60 was 0.90 with "fill" alone, 0.92 with "inside" alone and 0.97 with both.
 */
const VIEWS = ["fill", "inside"] as const;

export interface FaceEngine {
  detectFaces(image: PhotoInput): Promise<FaceDetection[]>;
}

export async function loadFaceEngine(manifestPath: string, settings: FaceEngineSettings): Promise<FaceEngine> {
  const { onnx, anchors } = await loadSsdMobilenet(manifestPath);
  // One intra-op thread: faces take one core and leave the others to the OCR workers.
  const session = await InferenceSession.create(onnx, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  });

  return {
    async detectFaces(image) {
      // Both views are resized from these pixels (the parent has usually brought them to this size).
      const photo = await uprightPixels(image, FACE_WORKING_LONG_SIDE);
      const faces: FaceDetection[] = [];
      for (const view of VIEWS)
        faces.push(...(await detectInView(session, anchors, photo, view, settings.minConfidence)));
      return keepStrongest(faces, settings.maxFaces);
    },
  };
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
    if (kept.every((other) => iou(other.box, face.box) <= SAME_FACE_IOU)) kept.push(face);
  }
  return kept;
}

function iou(a: BoundingBox, b: BoundingBox): number {
  const width = Math.max(0, Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left));
  const height = Math.max(0, Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top));
  const inter = width * height;
  return inter / (a.width * a.height + b.width * b.height - inter);
}
