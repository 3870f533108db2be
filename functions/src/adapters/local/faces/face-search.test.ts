import { describe, expect, it } from "vitest";
import { createPhotoFacesRepository } from "../../../data/photo-faces";
import type { BoundingBox } from "../../../ports/vision";
import { createMemoryTable } from "../../memory/table";
import { POSSIBLE_DISTANCE, SAME_PERSON_DISTANCE } from "./face-index";
import { createLocalFaceSearch } from "./face-search";
import { DESCRIPTOR_LENGTH } from "./faceres";

/** A unit vector turned from the first axis towards the second by the angle that puts it `distance` away. */
function at(distance: number): Float32Array {
  const angle = 2 * Math.asin(distance / 2);
  const v = new Float32Array(DESCRIPTOR_LENGTH);
  v[0] = Math.cos(angle);
  v[1] = Math.sin(angle);
  return v;
}

const box: BoundingBox = { left: 0.4, top: 0.1, width: 0.2, height: 0.2 };

/**
 * Prepare: an event whose photos each show one face at a known distance from the selfie's, described
 * by a scripted describer (the image's bytes name the photo), kept in the real repository.
 */
async function world() {
  const faceAt: Record<string, number> = {
    selfie: 0,
    same: 0.3,
    edge: SAME_PERSON_DISTANCE - 0.01,
    lookAlike: (SAME_PERSON_DISTANCE + POSSIBLE_DISTANCE) / 2,
    stranger: POSSIBLE_DISTANCE + 0.05,
  };
  const describer = {
    describeFaces: async (image: Buffer) => [at(faceAt[image.toString()] ?? 2)],
  };
  const photoFaces = createPhotoFacesRepository(createMemoryTable());
  const search = createLocalFaceSearch({ describer: async () => describer, photoFaces });
  for (const photoId of ["same", "edge", "lookAlike", "stranger"])
    await search.indexPhoto(1, photoId, Buffer.from(photoId), [box]);
  return { search, photoFaces };
}

describe("selfie search on the local engine", () => {
  it("answers the same person's photos as certain and a look-alike apart, nearest first, and no stranger", async () => {
    const { search } = await world();

    const matches = await search.search(1, Buffer.from("selfie"), box);

    expect(matches.map(({ photoId, certain }) => [photoId, certain])).toEqual([
      ["same", true],
      ["edge", true],
      ["lookAlike", false],
    ]);
    expect(matches.map((match) => match.score)).toEqual([...matches.map((match) => match.score)].sort((a, b) => b - a));
  });

  it("forgets, at the athlete's request, only the photos it is certain of", async () => {
    const { search } = await world();

    expect((await search.forget(1, Buffer.from("selfie"), box)).sort()).toEqual(["edge", "same"]);

    expect(await search.search(1, Buffer.from("selfie"), box)).toEqual([
      expect.objectContaining({ photoId: "lookAlike", certain: false }),
    ]);
  });
});
