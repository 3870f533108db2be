import { parentPort } from "node:worker_threads";
import { loadPaddleOcr } from "./engine";
import { OCR_MODEL_FILES } from "./models";
import type { OcrMessage, OcrRequest } from "./protocol";

const port = parentPort;
if (!port) throw new Error("worker.ts must run in a worker thread");

const ocr = await loadPaddleOcr(OCR_MODEL_FILES);
const reply = (message: OcrMessage) => port.postMessage(message);

port.on("message", async ({ image, closerLook }: OcrRequest) => {
  try {
    reply({ type: "result", detections: await ocr.detectText(image, closerLook ?? []) });
  } catch (error) {
    // A bad photo fails its own request; the worker and its loaded models stay up.
    reply({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }
});
reply({ type: "ready" });
