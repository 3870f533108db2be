import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { TextDetection, TextDetector, TextFilters } from "../../../ports/vision";
import { type PhotoInput, type RawPixels, transferableCopy } from "../pixels";
import type { Quad } from "./db-postprocess";
import { toTextDetections } from "./detections";
import { OCR_MODELS_VERSION } from "./models";
import type { OcrMessage, OcrReply, OcrRequest } from "./protocol";

export interface LocalTextDetectorOptions {
  /** Inference threads, each with its own models (~0.5 GB). Default: one per core. */
  workers?: number;
}

export interface LocalTextDetector extends TextDetector {
  /** Also takes pixels decoded once for every engine. */
  detectText(image: PhotoInput, filters?: TextFilters): Promise<TextDetection[]>;
  /**
   * detectText in two calls, so the first can run while faces are found; the second spreads the
   * reading over every worker. Pixels in shared memory (`sharedPixels`) reach a worker uncopied.
   */
  findCoarse(pixels: RawPixels): Promise<Quad[]>;
  finish(pixels: RawPixels, coarse: Quad[], filters?: TextFilters): Promise<TextDetection[]>;
  /** Rejects queued and running requests and stops the workers. */
  close(): Promise<void>;
}

interface Job {
  request: OcrRequest;
  resolve(reply: OcrReply): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job?: Job;
}

// Beside this file in the sources (a bootstrap that registers tsx), and beside the bundled runtime
// as the worker's own bundle (functions/local/bundle.ts): the same relative URL finds either.
const WORKER_ENTRY = new URL("./ocr-worker.mjs", import.meta.url);

/**
 * PaddleOCR PP-OCRv4 (detection + recognition) on onnxruntime, in worker threads so inference never
 * blocks the event loop of the HTTP server sharing the process. Requests queue until a worker is free.
 */
export async function createLocalTextDetector(options: LocalTextDetectorOptions = {}): Promise<LocalTextDetector> {
  const size = Math.max(1, options.workers ?? availableParallelism());
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let closed = false;
  /** Set once no worker is left and a replacement could not start. */
  let broken: Error | undefined;

  function dispatch(): void {
    for (const slot of slots) {
      const job = slot.job ? undefined : queue.shift();
      if (!job) continue;
      slot.job = job;
      const { request } = job;
      if (request.kind === "detect") {
        const { photo, transfer } = transferableCopy(request.image);
        slot.worker.postMessage({ ...request, image: photo } satisfies OcrRequest, [transfer]);
      } else {
        slot.worker.postMessage(request);
      }
    }
  }

  function adopt(worker: Worker): void {
    const slot: Slot = { worker };
    let crash: Error | undefined;
    worker.on("message", (message: OcrReply) => {
      const job = slot.job;
      if (!job) return;
      slot.job = undefined;
      if (message.type === "error") job.reject(new Error(`text detection failed: ${message.message}`));
      else job.resolve(message);
      dispatch();
    });
    worker.on("error", (error) => {
      crash = error;
    });
    worker.on("exit", (code) => {
      const index = slots.indexOf(slot);
      if (index >= 0) slots.splice(index, 1);
      if (closed) return;
      const error = crash ?? new Error(`OCR worker exited with code ${code}`);
      slot.job?.reject(error);
      startWorker().then(
        (replacement) => {
          if (closed) return void replacement.terminate();
          adopt(replacement);
          dispatch();
        },
        (startError: Error) => {
          // The remaining workers carry on; only a pool left with none fails its callers.
          if (slots.length > 0) return;
          broken = startError;
          for (const job of queue.splice(0)) job.reject(startError);
        },
      );
    });
    slots.push(slot);
  }

  const started = await Promise.allSettled(Array.from({ length: size }, startWorker));
  for (const result of started) if (result.status === "fulfilled") adopt(result.value);
  const failure = started.find((result) => result.status === "rejected");
  if (failure) {
    closed = true;
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
    throw failure.reason;
  }

  function run(request: OcrRequest): Promise<OcrReply> {
    if (closed) return Promise.reject(new Error("text detector is closed"));
    if (broken) return Promise.reject(broken);
    return new Promise<OcrReply>((resolve, reject) => {
      queue.push({ request, resolve, reject });
      dispatch();
    });
  }

  return {
    info: { engine: "paddleocr-ppocrv4-onnx", version: OCR_MODELS_VERSION },
    async detectText(image, filters) {
      const reply = await run({ kind: "detect", image, closerLook: filters?.closerLook ?? [] });
      return replyOf(reply, "detections").detections;
    },
    async findCoarse(pixels) {
      return replyOf(await run({ kind: "coarse", image: pixels }), "quads").quads;
    },
    async finish(pixels, coarse, filters) {
      const closerLook = filters?.closerLook ?? [];
      const { quads } = replyOf(await run({ kind: "fine", image: pixels, coarse, closerLook }), "quads");
      // Every worker reads a share, dealt in turn so that big and small regions spread evenly; one
      // share at least, which waits in the queue while a crashed worker is replaced.
      const count = Math.max(1, Math.min(slots.length, quads.length));
      const shares = Array.from({ length: count }, (_, share) => quads.filter((_, i) => i % count === share));
      const read = await Promise.all(
        shares.map(
          async (share) => replyOf(await run({ kind: "read", image: pixels, quads: share }), "regions").regions,
        ),
      );
      // Back in the regions' own order, so the detections are the same however they were shared.
      const regions = quads.map((_, i) => read[i % count]?.[Math.floor(i / count)] ?? null);
      return toTextDetections(regions.filter((region) => region !== null));
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = new Error("text detector closed");
      for (const job of queue.splice(0)) job.reject(error);
      for (const slot of slots) slot.job?.reject(error);
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}

/** Resolves once the worker has loaded its models, so a broken install fails at start-up. */
function startWorker(): Promise<Worker> {
  const worker = new Worker(WORKER_ENTRY, { name: "paddleocr" });
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      worker.off("message", ready);
      worker.off("exit", exited);
      reject(error);
    };
    const exited = (code: number) => fail(new Error(`OCR worker exited with code ${code} while loading its models`));
    const ready = (message: OcrMessage) => {
      if (message.type !== "ready") return;
      worker.off("error", fail);
      worker.off("exit", exited);
      worker.off("message", ready);
      resolve(worker);
    };
    worker.on("message", ready);
    worker.once("error", fail);
    worker.once("exit", exited);
  });
}

function replyOf<T extends OcrReply["type"]>(reply: OcrReply, type: T): Extract<OcrReply, { type: T }> {
  if (reply.type !== type) throw new Error(`OCR worker answered ${reply.type} where ${type} was due`);
  return reply as Extract<OcrReply, { type: T }>;
}
