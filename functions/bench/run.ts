import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type BibRuleConfig, extractBibs } from "@dorsal/shared";
import sharp from "sharp";
import { createLocalFaceDetector, type LocalFaceDetector } from "../src/adapters/local/faces";
import { createLocalTextDetector, type LocalTextDetector } from "../src/adapters/local/ocr";
import type { FaceDetection, TextDetection } from "../src/ports/vision";
import { rulesFor } from "../src/app/bib-index";
import { loadSet } from "./dataset";
import type { Truth } from "./score";

/** The pipeline detects faces on its web copy, not the original. */
const WEB_LONG_SIDE = 2048;

interface EngineOutput {
  detections: TextDetection[];
  faces: FaceDetection[];
  /** Text detection (decode + detection + recognition) then face detection, as the pipeline runs them. */
  ms: number;
  textMs: number;
}

export interface PhotoRun extends EngineOutput {
  path: string;
  truth: Truth;
  /** The event's bibs under these rules, as the product would publish them (start lists aside). */
  predict(rules: BibRuleConfig): string[];
}

/** Each rule switched off in turn, for the table in docs/recognition.md. */
export const ABLATIONS: Record<string, Partial<BibRuleConfig>> = {
  "confidence threshold": { ocrConfidenceThreshold: 0 },
  "min digits": { minDigits: 1 },
  "leading zero": { allowLeadingZeros: true },
  "photo edge": { edgeMargin: 0 },
  wearer: { requireWearer: false },
  "size vs face": { dorsalSizeThreshold: 0 },
  "all of them": {
    ocrConfidenceThreshold: 0,
    minDigits: 1,
    allowLeadingZeros: true,
    edgeMargin: 0,
    requireWearer: false,
    dorsalSizeThreshold: 0,
  },
};

let engines: Promise<{ text: LocalTextDetector; faces: LocalFaceDetector }> | undefined;

export async function closeEngines(): Promise<void> {
  const started = await engines;
  await Promise.all([started?.text.close(), started?.faces.close()]);
}

export async function runSet(dir: string, options: { cache?: string | undefined; workers?: number | undefined }) {
  const set = loadSet(dir);
  const cacheFile = options.cache ? join(options.cache, `${set.name}.json`) : undefined;
  let outputs: Record<string, EngineOutput> | undefined;
  if (cacheFile && existsSync(cacheFile)) {
    outputs = JSON.parse(readFileSync(cacheFile, "utf8"));
    if (![...set.truth.keys()].every((path) => outputs && path in outputs)) outputs = undefined;
  }
  const cached = outputs !== undefined;
  if (!outputs) {
    outputs = await detectAll(set.dir, [...set.truth.keys()], options.workers);
    if (cacheFile && options.cache) {
      mkdirSync(options.cache, { recursive: true });
      writeFileSync(cacheFile, JSON.stringify(outputs));
    }
  }
  const photos: PhotoRun[] = [...set.truth].map(([path, truth]) => {
    const output = outputs[path] as EngineOutput;
    // The pipeline's machineBibsFrom keeps WORDs only; LINEs repeat them.
    const words = output.detections.filter((detection) => detection.type === "WORD");
    return {
      ...output,
      path,
      truth,
      predict: (rules) => extractBibs(words, rules, output.faces).map((bib) => bib.number),
    };
  });
  return { ...set, cached, photos, rules: rulesFor({ ...set.config, eventId: 0, configurationVersion: 0, updatedAt: null }) };
}

async function detectAll(dir: string, paths: string[], workers: number | undefined) {
  engines ??= Promise.all([createLocalTextDetector({ workers }), createLocalFaceDetector()]).then(([text, faces]) => ({
    text,
    faces,
  }));
  const { text, faces } = await engines;
  const outputs: Record<string, EngineOutput> = {};
  const queue = [...paths];
  // As many photos in flight as text workers: each is timed alone, without queueing behind others.
  const lanes = Math.max(1, workers ?? (await import("node:os")).availableParallelism());
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const original = readFileSync(join(dir, path));
        const web = await sharp(original)
          .rotate()
          .resize(WEB_LONG_SIDE, WEB_LONG_SIDE, { fit: "inside", withoutEnlargement: true })
          .jpeg()
          .toBuffer();
        const started = performance.now();
        const detections = await text.detectText(original);
        const textMs = performance.now() - started;
        const found = await faces.detectFaces(web);
        outputs[path] = { detections, faces: found, textMs, ms: performance.now() - started };
      }
    }),
  );
  return outputs;
}
