import { describe, expect, it } from "vitest";
import { FaceIndex, SAME_PERSON_DISTANCE } from "./face-index";

/** A unit vector along `axis`, turned towards `towards` by `angle` radians. */
function unit(axis: number, towards = (axis + 1) % 128, angle = 0): Float32Array {
  const v = new Float32Array(128);
  v[axis] = Math.cos(angle);
  v[towards] = Math.sin(angle);
  return v;
}

/** The angle between unit vectors at Euclidean distance d. */
const angleFor = (d: number) => 2 * Math.asin(d / 2);

describe("face index", () => {
  it("finds the photos within the distance, nearest first, each photo once at its nearest face", () => {
    const index = new FaceIndex();
    index.add("far", unit(0, 1, angleFor(SAME_PERSON_DISTANCE + 0.05)));
    index.add("group", unit(0, 2, angleFor(0.3)));
    index.add("group", unit(0, 3, angleFor(0.1)));
    index.add("close", unit(0, 4, angleFor(0.2)));
    index.add("other", unit(5));

    const matches = index.search(unit(0));

    expect(matches.map((m) => m.photoId)).toEqual(["group", "close"]);
    expect(matches.map((m) => m.distance)).toEqual([expect.closeTo(0.1, 5), expect.closeTo(0.2, 5)]);
    expect(index.search(unit(0), SAME_PERSON_DISTANCE + 0.1).map((m) => m.photoId)).toContain("far");
  });

  it("grows past its first allocation and still finds the last face added", () => {
    const index = new FaceIndex();
    for (let i = 0; i < 3000; i++) index.add(`photo-${i}`, unit(i % 100));
    index.add("needle", unit(120));

    expect(index.size).toBe(3001);
    expect(index.search(unit(120))).toEqual([{ photoId: "needle", distance: expect.closeTo(0, 5) }]);
  });

  it("refuses a descriptor of the wrong length", () => {
    expect(() => new FaceIndex().add("photo", new Float32Array(64))).toThrow(/128/);
  });
});
