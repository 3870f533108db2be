import { Worker } from "node:worker_threads";
import type { BoundingBox, FaceDetection, FaceDetector } from "../../../ports/vision";
import { type PhotoInput, transferableCopy, uprightPixels } from "../pixels";
import { FACE_MODEL_VERSION } from "./models";
import {
  FACE_DESCRIBE_LONG_SIDE,
  FACE_WORKING_LONG_SIDE,
  type FaceEngineSettings,
  type FaceMessage,
  type FaceReply,
  type FaceRequest,
} from "./protocol";

export interface LocalFaceDetectorOptions {
  /**
   * 0..100, default 45: the boxes returned, hints of runners included (see FACE_CONFIDENCE for those
   * that count as faces). The SSD's scores run lower than Rekognition's. Judged by eye on the RBNR
   * race photos, about 93% of boxes above 60 are faces (many in the crowd), the rest mostly hands and
   * backs of heads; between 35 and 50 only about half are. Returning boxes down to 45 gives the bib
   * rules two more runners' bibs on casablanca10k (docs/recognition.md).
   */
  minConfidence?: number;
  /** Rekognition's DetectFaces returns at most 100 faces. */
  maxFaces?: number;
}

export interface LocalFaceDetector extends FaceDetector {
  /** Also takes pixels decoded once for every engine. */
  detectFaces(image: PhotoInput): Promise<FaceDetection[]>;
  /**
   * A 1024-value L2-normalised descriptor for each face box (as detectFaces returns them), in the boxes'
   * order: two photos of one person lie closer than SAME_PERSON_DISTANCE (see face-index.ts).
   */
  describeFaces(image: PhotoInput, boxes: BoundingBox[]): Promise<Float32Array[]>;
  /** Rejects queued and running requests and stops the worker. */
  close(): Promise<void>;
}

// Beside this file in the sources (a bootstrap that registers tsx), and beside the bundled runtime
// as the worker's own bundle (functions/local/bundle.ts): the same relative URL finds either.
const WORKER_ENTRY = new URL("./faces-worker.mjs", import.meta.url);

type Answer = Exclude<FaceReply, { type: "error" }>;

interface Pending {
  resolve(answer: Answer): void;
  reject(error: Error): void;
}

/** One worker thread with the model loaded; requests queue inside it. */
class FaceWorker {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** Set once the thread is gone: every later request fails with it. */
  private ended: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly onEnd: () => void,
  ) {
    let crash: Error | undefined;
    worker.on("message", (message: FaceMessage) => {
      if (message.type === "ready") return;
      const job = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.type === "error") job?.reject(new Error(message.message));
      else job?.resolve(message);
    });
    worker.on("error", (error) => {
      crash = error;
    });
    worker.on("exit", (code) => this.end(crash ?? new Error(`face worker exited with code ${code}`)));
  }

  /** Resolves once the worker has loaded its model, so a broken install fails at start-up. */
  static start(settings: FaceEngineSettings, onEnd: () => void): Promise<FaceWorker> {
    const worker = new Worker(WORKER_ENTRY, { name: "faces", workerData: settings });
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      const onExit = (code: number) =>
        reject(new Error(`face worker exited with code ${code} while loading its model`));
      worker.once("error", onError);
      worker.once("exit", onExit);
      worker.once("message", () => {
        worker.off("error", onError);
        worker.off("exit", onExit);
        resolve(new FaceWorker(worker, onEnd));
      });
    });
  }

  async detect(image: PhotoInput): Promise<FaceDetection[]> {
    const answer = await this.ask("face detection", image, FACE_WORKING_LONG_SIDE, (id, photo) => ({
      type: "detect",
      id,
      image: photo,
    }));
    if (answer.type !== "faces") throw new Error(`face worker answered a detection with ${answer.type}`);
    return answer.faces;
  }

  async describe(image: PhotoInput, boxes: BoundingBox[]): Promise<Float32Array[]> {
    const answer = await this.ask("face description", image, FACE_DESCRIBE_LONG_SIDE, (id, photo) => ({
      type: "describe",
      id,
      image: photo,
      boxes,
    }));
    if (answer.type !== "descriptors") throw new Error(`face worker answered a description with ${answer.type}`);
    return answer.descriptors;
  }

  private async ask(
    task: string,
    image: PhotoInput,
    longSide: number,
    request: (id: number, photo: PhotoInput) => FaceRequest,
  ): Promise<Answer> {
    if (this.ended) throw this.ended;
    const id = this.nextId++;
    const failed = (error: unknown) =>
      new Error(`${task} failed: ${error instanceof Error ? error.message : String(error)}`);
    const pixels = await uprightPixels(image, longSide).catch((error: unknown) => {
      throw failed(error);
    });
    const { photo, transfer } = transferableCopy(pixels);
    if (this.ended) throw this.ended;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject: (error) => reject(error === this.ended ? error : failed(error)) });
      this.worker.postMessage(request(id, photo), [transfer]);
    });
  }

  async stop(reason: Error): Promise<void> {
    this.end(reason);
    await this.worker.terminate();
  }

  private end(reason: Error): void {
    if (this.ended) return;
    this.ended = reason;
    for (const job of this.pending.values()) job.reject(reason);
    this.pending.clear();
    this.onEnd();
  }
}

/**
 * face-api's SSD MobileNetV1 face detector on onnxruntime, in a worker thread so inference never
 * blocks the event loop of the HTTP server sharing the process. A worker that dies is replaced on
 * the next request.
 */
export async function createLocalFaceDetector(options: LocalFaceDetectorOptions = {}): Promise<LocalFaceDetector> {
  const settings: FaceEngineSettings = {
    minConfidence: options.minConfidence ?? 45,
    maxFaces: options.maxFaces ?? 100,
  };
  let current: Promise<FaceWorker> | undefined;
  let closed = false;

  function worker(): Promise<FaceWorker> {
    if (current) return current;
    const starting = FaceWorker.start(settings, () => {
      if (current === starting) current = undefined;
    });
    current = starting;
    // A failed start must not stick: the next request tries again.
    starting.catch(() => {
      if (current === starting) current = undefined;
    });
    return starting;
  }

  await worker();
  return {
    info: { engine: "face-api-ssd-mobilenetv1-onnx", version: FACE_MODEL_VERSION },
    async detectFaces(image) {
      if (closed) throw new Error("face detector is closed");
      return (await worker()).detect(image);
    },
    async describeFaces(image, boxes) {
      if (closed) throw new Error("face detector is closed");
      return (await worker()).describe(image, boxes);
    },
    async close() {
      if (closed) return;
      closed = true;
      const last = current;
      current = undefined;
      await last?.then(
        (w) => w.stop(new Error("face detector closed")),
        () => undefined,
      );
    },
  };
}
