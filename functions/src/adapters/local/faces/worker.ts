import { parentPort, workerData } from "node:worker_threads";
import { faceDescriberModel, faceDetectorModel } from "../prepared-models";
import { loadFaceEngine } from "./engine";
import type { FaceEngineSettings, FaceMessage, FaceRequest } from "./protocol";

const port = parentPort;
if (!port) throw new Error("worker.ts must run in a worker thread");

const engine = await loadFaceEngine(
  { detector: await faceDetectorModel(), describer: faceDescriberModel },
  workerData as FaceEngineSettings,
);
const reply = (message: FaceMessage) => port.postMessage(message);

// Photos run strictly one after another, so a burst of requests never runs several inferences at once.
let queue = Promise.resolve();
port.on("message", (request: FaceRequest) => {
  const { id } = request;
  queue = queue.then(async () => {
    try {
      if (request.type === "detect") reply({ type: "faces", id, faces: await engine.detectFaces(request.image) });
      else reply({ type: "descriptors", id, descriptors: await engine.describeFaces(request.image, request.boxes) });
    } catch (error) {
      // A bad photo fails its own request; the worker and its loaded model stay up.
      reply({ type: "error", id, message: error instanceof Error ? error.message : String(error) });
    }
  });
});
reply({ type: "ready" });
