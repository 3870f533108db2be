import type { EventDto } from "@dorsal/shared";
import { createEventRequest } from "@dorsal/shared/staff-requests";
import sharp from "sharp";
import { createManualClock, createSequentialIds } from "../adapters/memory/clock";
import { createMemoryPayments } from "../adapters/memory/payments";
import { createScriptedVision } from "../adapters/memory/vision";
import { createEvent } from "../app/events";
import { storagePaths } from "../app/storage-paths";
import type { FaceDetection, TextDetection } from "../ports/vision";
import { memoryContainer } from "./memory-container";

export interface Reading {
  text: TextDetection[];
  faces: FaceDetection[];
}

export const runnerFace: FaceDetection = { confidence: 99, box: { left: 0.44, top: 0.1, width: 0.12, height: 0.16 } };

/** A bib's print as the engines report it: one LINE and its WORD, on the chest below the face. */
export const bibPrint = (text: string, confidence = 98): TextDetection[] => {
  const box = { left: 0.42, top: 0.42, width: 0.16, height: 0.08 };
  return [
    { type: "LINE", text, confidence, box, id: 1 },
    { type: "WORD", text, confidence, box, id: 2, parentId: 1 },
  ];
};

/** A runner wearing `bib`, as the scripted engine reports them. */
export const runnerWearing = (bib: string, confidence?: number): Reading => ({
  text: bibPrint(bib, confidence),
  faces: [runnerFace],
});

/**
 * Prepare for use-case tests: the in-memory container with a clock moved by hand, sequential ids,
 * a payment gateway the test plays and an engine that reads whatever the test says the next photo
 * shows; one paid event; and `process`, which runs a photo through the pipeline's steps as Step
 * Functions calls them (prepare → variants ∥ detect → record).
 */
export async function scriptedWorld() {
  let shows: Reading = { text: [], faces: [] };
  const clock = createManualClock(new Date("2026-12-06T09:30:00Z"));
  const payments = createMemoryPayments();
  const container = await memoryContainer({
    clock,
    ids: createSequentialIds(),
    payments,
    vision: createScriptedVision(() => shows),
    urls: { signedGetUrl: async (bucket, key) => `memoria://${bucket}/${key}` },
  });
  const { deps, pipelineTasks: tasks } = container;
  const event: EventDto = await createEvent(
    deps,
    createEventRequest.parse({ name: "10K Medellín", date: "2026-12-06" }),
  );
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#2f6db5" } })
    .jpeg()
    .toBuffer();
  let uploaded = 0;
  const process = async (reading: Reading) => {
    shows = reading;
    const key = storagePaths.original(event.id, `foto${String(++uploaded).padStart(4, "0")}`, "jpg");
    await deps.objects.put("originals", key, photo, "image/jpeg", photo.length);
    const prepared = await tasks.prepare({
      bucket: deps.objects.bucketName("originals"),
      key,
      size: photo.length,
      version: "1",
    });
    const [variants, detection] = await Promise.all([
      tasks.variants({ photo: prepared }),
      tasks.detect({ photo: prepared }),
    ]);
    return tasks.record({ photo: prepared, variants, detection });
  };
  return { deps, clock, payments, event, process };
}
