import { describe, expect, it } from "vitest";
import { runnerWearing, scriptedWorld } from "../testing/scripted-world";
import { searchByBib } from "./search";

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
