import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

// The package has no exports map; its model/ folder holds the tfjs weight files.
const packageDir = dirname(createRequire(import.meta.url).resolve("@vladmandic/face-api/package.json"));

export const FACE_MODELS = {
  detector: join(packageDir, "model/ssd_mobilenetv1_model-weights_manifest.json"),
  recognition: join(packageDir, "model/face_recognition_model-weights_manifest.json"),
};

export const FACE_MODEL_VERSION: string = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;
