import { parentPort, workerData } from "node:worker_threads";
import { loadFaceEngine } from "./engine";
import { FACE_MODEL_MANIFEST } from "./models";
import type { FaceEngineSettings, FaceMessage, FaceRequest } from "./protocol";

const port = parentPort;
if (!port) throw new Error("worker.ts must run in a worker thread");

const engine = await loadFaceEngine(FACE_MODEL_MANIFEST, workerData as FaceEngineSettings);
const reply = (message: FaceMessage) => port.postMessage(message);

// Photos run strictly one after another, so a burst of requests never runs several inferences at once.
let queue = Promise.resolve();
port.on("message", ({ id, image }: FaceRequest) => {
  queue = queue.then(async () => {
    try {
      reply({ type: "result", id, faces: await engine.detectFaces(image) });
    } catch (error) {
      // A bad photo fails its own request; the worker and its loaded model stay up.
      reply({ type: "error", id, message: error instanceof Error ? error.message : String(error) });
    }
  });
});
reply({ type: "ready" });
