import { readFile } from "node:fs/promises";
import { parentPort } from "node:worker_threads";
import { ocrDetectorModel, ocrRecogniserModel } from "../prepared-models";
import { loadPaddleOcr } from "./engine";
import { OCR_MODEL_FILES } from "./models";
import type { OcrMessage, OcrReply, OcrRequest } from "./protocol";

const port = parentPort;
if (!port) throw new Error("worker.ts must run in a worker thread");

const [detector, recogniser, dictionary] = await Promise.all([
  ocrDetectorModel(),
  ocrRecogniserModel(),
  readFile(OCR_MODEL_FILES.dictionary, "utf8"),
]);
const ocr = await loadPaddleOcr({ detector, recogniser, dictionary });
const reply = (message: OcrMessage) => port.postMessage(message);

async function answer(request: OcrRequest): Promise<OcrReply> {
  switch (request.kind) {
    case "detect":
      return { type: "detections", detections: await ocr.detectText(request.image, request.closerLook) };
    case "coarse":
      return { type: "quads", quads: await ocr.findCoarse(request.image) };
    case "fine":
      return { type: "quads", quads: await ocr.findFine(request.image, request.coarse, request.closerLook) };
    case "read":
      return { type: "regions", regions: await ocr.readRegions(request.image, request.quads) };
  }
}

port.on("message", async (request: OcrRequest) => {
  try {
    reply(await answer(request));
  } catch (error) {
    // A bad photo fails its own request; the worker and its loaded models stay up.
    reply({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }
});
reply({ type: "ready" });
