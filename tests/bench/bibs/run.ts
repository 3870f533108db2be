import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { type BibRuleConfig, extractBibs } from "@dorsal/shared";
import { createLocalVision } from "../../../functions/src/adapters/local/local-vision";
import { rulesFor } from "../../../functions/src/app/bib-index";
import type { FaceDetection, TextDetection, Vision } from "../../../functions/src/ports/vision";
import { loadSet } from "./dataset";
import type { Truth } from "./score";

interface EngineOutput {
  detections: TextDetection[];
  faces: FaceDetection[];
  /** Decode + faces + text, as the pipeline's detect step runs them. */
  ms: number;
  /** Decode + text detection and recognition. */
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
  wearer: { requireWearer: false },
  "size vs face": { dorsalSizeThreshold: 0 },
  "all of them": {
    ocrConfidenceThreshold: 0,
    minDigits: 1,
    allowLeadingZeros: true,
    requireWearer: false,
    dorsalSizeThreshold: 0,
  },
};

let engines: Promise<Vision> | undefined;

export async function closeEngines(): Promise<void> {
  await (await engines)?.close();
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
  return {
    ...set,
    cached,
    photos,
    rules: rulesFor({ ...set.config, eventId: 0, configurationVersion: 0, updatedAt: null }),
  };
}

async function detectAll(dir: string, paths: string[], workers: number | undefined) {
  engines ??= createLocalVision({ workers });
  const vision = await engines;
  const outputs: Record<string, EngineOutput> = {};
  const queue = [...paths];
  // As many photos in flight as text workers: each is timed alone, without queueing behind others.
  const lanes = Math.max(1, workers ?? availableParallelism());
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const original = readFileSync(join(dir, path));
        // The pipeline's detect step: one decode, faces, then text (looking closer at small runners).
        const reading = await vision.readPhoto(original);
        outputs[path] = {
          detections: reading.text,
          faces: reading.faces,
          textMs: reading.ms.decode + reading.ms.text,
          ms: reading.ms.decode + reading.ms.text + reading.ms.faces,
        };
      }
    }),
  );
  return outputs;
}
