import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadFaceRes } from "./faces/faceres";
import { FACE_MODELS } from "./faces/models";
import { loadSsdMobilenet, type SsdModel } from "./faces/ssd-mobilenet";
import { OCR_MODEL_FILES } from "./ocr/models";
import { foldAffineOps } from "./onnx/fold-affine";

/**
 * The recognition models as the engines load them: PP-OCRv4's graphs folded (fold-affine.ts), the
 * face detector and describer rebuilt as ONNX from their tfjs weights. Making them costs ~0.8 CPU-s
 * every time a runtime's recognition workers start (two OCR workers fold both graphs, the face worker
 * builds its detector), and the tests start dozens of runtimes from one bundle. So the runtime's
 * bundle (functions/local/bundle.ts) makes them once, into `models/` beside itself, written by the
 * same build as the code that reads them; from the sources (tsx: benchmarks, engine tests) there is
 * no such folder and each is made as it is loaded.
 */
const preparedDir = fileURLToPath(new URL("./models/", import.meta.url));

const files = {
  ocrDetector: "ocr-detector.onnx",
  ocrRecogniser: "ocr-recogniser.onnx",
  faceDetector: "face-detector.onnx",
  faceDetectorAnchors: "face-detector-anchors.f32",
  faceDescriber: "face-describer.onnx",
} as const;

const foldedOcrModel = async (file: string) => foldAffineOps(await readFile(file)).model;

/** The prepared file when the bundle made one, else the model made now. */
async function prepared(file: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const at = path.join(preparedDir, file);
  return existsSync(at) ? new Uint8Array(await readFile(at)) : make();
}

export async function ocrDetectorModel(): Promise<Uint8Array> {
  return prepared(files.ocrDetector, () => foldedOcrModel(OCR_MODEL_FILES.detection));
}

export async function ocrRecogniserModel(): Promise<Uint8Array> {
  return prepared(files.ocrRecogniser, () => foldedOcrModel(OCR_MODEL_FILES.recognition));
}

export async function faceDetectorModel(): Promise<SsdModel> {
  const onnx = path.join(preparedDir, files.faceDetector);
  const anchors = path.join(preparedDir, files.faceDetectorAnchors);
  if (!existsSync(onnx) || !existsSync(anchors)) return loadSsdMobilenet(FACE_MODELS.detector);
  // Copied into an ArrayBuffer of its own: a Buffer's offset into a shared pool may not be 4-aligned.
  const anchorBytes = new Uint8Array(await readFile(anchors));
  return { onnx: new Uint8Array(await readFile(onnx)), anchors: new Float32Array(anchorBytes.buffer) };
}

export async function faceDescriberModel(): Promise<Uint8Array> {
  return prepared(files.faceDescriber, () => loadFaceRes(FACE_MODELS.recognition));
}

/**
 * Makes every model into `dir` (the bundle's `models/`), each written under a temporary name and
 * renamed, so a runtime starting while another process rebuilds reads a whole file, old or new.
 */
export async function writePreparedModels(dir: string): Promise<void> {
  const [detector, recogniser, face, describer] = await Promise.all([
    foldedOcrModel(OCR_MODEL_FILES.detection),
    foldedOcrModel(OCR_MODEL_FILES.recognition),
    loadSsdMobilenet(FACE_MODELS.detector),
    loadFaceRes(FACE_MODELS.recognition),
  ]);
  await mkdir(dir, { recursive: true });
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  const contents: [string, Uint8Array][] = [
    [files.ocrDetector, detector],
    [files.ocrRecogniser, recogniser],
    [files.faceDetector, face.onnx],
    [files.faceDetectorAnchors, new Uint8Array(face.anchors.buffer, face.anchors.byteOffset, face.anchors.byteLength)],
    [files.faceDescriber, describer],
  ];
  await Promise.all(
    contents.map(async ([name, bytes]) => {
      const target = path.join(dir, name);
      await writeFile(`${target}${suffix}`, bytes);
      await rename(`${target}${suffix}`, target);
    }),
  );
}
