import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

// Neither package exports its models: their folders hold the tfjs weight files. Human's exports map
// names only its bundles: its Node one (in dist/) is resolved here, never loaded (it needs tfjs-node).
const require = createRequire(import.meta.url);
const faceApiDir = dirname(require.resolve("@vladmandic/face-api/package.json"));
const humanDir = join(dirname(require.resolve("@vladmandic/human")), "..");

const versionOf = (dir: string): string => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;

export const FACE_MODELS = {
  detector: join(faceApiDir, "model/ssd_mobilenetv1_model-weights_manifest.json"),
  recognition: join(humanDir, "models/faceres.json"),
};

export const FACE_MODEL_VERSION: string = versionOf(faceApiDir);

/**
 * Names the descriptor model in every stored descriptor: descriptors of two models cannot be
 * compared, so faces kept by another one are described again (docs/selfie-search.md).
 */
export const FACE_DESCRIPTOR_MODEL = `human-faceres@${versionOf(humanDir)}`;
