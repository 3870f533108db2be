import { createEventRequest } from "@dorsal/shared/staff-requests";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createScriptedVision } from "../adapters/memory/vision";
import type { FaceSearch } from "../ports/face-search";
import type { BoundingBox, FaceDetection, TextDetection } from "../ports/vision";
import { memoryContainer } from "../testing/memory-container";
import { runnerFace, runnerWearing, scriptedWorld } from "../testing/scripted-world";
import { createEvent } from "./events";
import { keepFacesForSearch } from "./face-search";
import { searchByBib } from "./search";
import { storagePaths } from "./storage-paths";

describe("the photo pipeline's steps, on in-memory ports", () => {
  it("makes a photo findable by the bib its runner wears, as the public's watermarked copy", async () => {
    const { deps, event, process } = await scriptedWorld();

    const recorded = await process(runnerWearing("4821"));
    const found = await searchByBib(deps, event.id, "4821");

    expect(recorded).toMatchObject({ bibs: ["4821"], firstTime: true });
    expect(found.totalFound).toBe(1);
    expect(found.photos[0]?.id).toBe(recorded.photoId);
    expect(found.photos[0]?.webUrl).toMatch(/^memoria:\/\/derived\/eventos\/\d+\/muestras\//);
    expect((await deps.events.stats([event.id])).get(event.id)).toMatchObject({
      totalPhotos: 1,
      processedPhotos: 1,
      facesDetected: 1,
    });
  });

  it("leaves a read below the event's confidence threshold out of the index, under 'Sin dorsal'", async () => {
    const { deps, event, process } = await scriptedWorld();

    const recorded = await process(runnerWearing("4821", 60));

    expect(recorded.bibs).toEqual([]);
    expect((await searchByBib(deps, event.id, "4821")).totalFound).toBe(0);
    expect((await deps.photos.get(recorded.photoId))?.processingStatus).toBe("successful");
  });
});

describe("faces too faint to count", () => {
  /** A runner further back: a box the detector is unsure of (a hand, or a face), and the bib below it. */
  const faint: FaceDetection = { confidence: 50, box: { left: 0.04, top: 0.3, width: 0.06, height: 0.08 } };
  const bibBelowFaint = (bib: string): TextDetection[] => {
    const box = { left: 0.03, top: 0.4, width: 0.08, height: 0.04 };
    return [
      { type: "LINE", text: bib, confidence: 97, box, id: 3 },
      { type: "WORD", text: bib, confidence: 97, box, id: 4, parentId: 3 },
    ];
  };

  it("still tell the bib rules where a runner stands, but are not counted as faces", async () => {
    const { deps, event, process } = await scriptedWorld();
    const near = runnerWearing("4821");

    const withoutHint = await process({ text: [...near.text, ...bibBelowFaint("292")], faces: near.faces });
    const withHint = await process({ text: [...near.text, ...bibBelowFaint("292")], faces: [...near.faces, faint] });

    // Beside a sure face, text below no face is a banner's; the faint box says a runner wears it.
    expect(withoutHint.bibs).toEqual(["4821"]);
    expect([...withHint.bibs].sort()).toEqual(["292", "4821"]);
    expect((await deps.events.stats([event.id])).get(event.id)).toMatchObject({ processedPhotos: 2, facesDetected: 2 });
    // Kept on the photo all the same: a re-index applies the rules to the same hints.
    expect((await deps.photos.get(withHint.photoId))?.faces).toHaveLength(2);
  });

  it("are not kept for selfie search", async () => {
    const { deps, event } = await scriptedWorld();
    const kept: BoundingBox[][] = [];
    const recording: FaceSearch = {
      descriptorModel: async () => undefined,
      indexPhoto: async (_eventId, _photoId, _image, faces) => kept.push(faces),
      search: async () => [],
      forget: async () => [],
      removeEvent: async () => {},
    };

    await keepFacesForSearch(
      { ...deps, faceSearch: recording },
      { eventId: event.id, photoId: "f1" },
      Buffer.from(""),
      [runnerFace, faint],
    );

    expect(kept).toEqual([[runnerFace.box]]);
  });
});

describe("what the engine is given to read", () => {
  async function readingOf(settings: Record<string, string>) {
    const seen: { width?: number; height?: number }[] = [];
    const container = await memoryContainer(
      {
        vision: createScriptedVision(() => ({})),
      },
      settings,
    );
    const vision = await container.deps.vision();
    const readPhoto = vision.readPhoto;
    vision.readPhoto = async (image, filters) => {
      seen.push(await sharp(image).metadata());
      return readPhoto(image, filters);
    };
    const { deps, pipelineTasks: tasks } = container;
    const event = await createEvent(deps, createEventRequest.parse({ name: "24 MP", date: "2026-12-06" }));
    // A race photo's shape at a third of its size: what matters is being over 3000 px.
    const original = await sharp({ create: { width: 4500, height: 3000, channels: 3, background: "#2f6db5" } })
      .jpeg()
      .toBuffer();
    const key = storagePaths.original(event.id, "grande0001", "jpg");
    await deps.objects.put("originals", key, original, "image/jpeg", original.length);
    const photo = await tasks.prepare({ bucket: deps.objects.bucketName("originals"), key, size: 1, version: "1" });
    return { deps, tasks, photo, seen };
  }

  it("is a working copy of at most 3000 px made once by variants, when Rekognition reads", async () => {
    const { deps, tasks, photo, seen } = await readingOf({ VISION_ENGINE: "rekognition" });

    const variants = await tasks.variants({ photo });
    await tasks.detect({ photo, variants });

    expect(photo.detectFromWorkingCopy).toBe(true);
    expect(variants.workingKey).toBeDefined();
    const working = await sharp(await deps.objects.getBuffer("derived", variants.workingKey ?? "")).metadata();
    expect([working.width, working.height]).toEqual([3000, 2000]);
    expect(seen[0]).toMatchObject({ width: 3000, height: 2000 });
    // The web copy is still made at its own size, from the same decode.
    expect((await sharp(await deps.objects.getBuffer("derived", variants.webKey)).metadata()).width).toBe(2048);
    // Once recorded, the working copy is gone: it served detect only.
    await tasks.record({ photo, variants, detection: await tasks.detect({ photo, variants }) });
    await expect(deps.objects.getBuffer("derived", variants.workingKey ?? "")).rejects.toThrow();
  });

  it("is the original itself, beside variants, when the local engine reads (it takes full resolution)", async () => {
    const { tasks, photo, seen } = await readingOf({ VISION_ENGINE: "local" });

    const [variants] = await Promise.all([tasks.variants({ photo }), tasks.detect({ photo })]);

    expect(photo.detectFromWorkingCopy).toBe(false);
    expect(variants.workingKey).toBeUndefined();
    expect(seen).toMatchObject([{ width: 4500, height: 3000 }]);
  });
});
