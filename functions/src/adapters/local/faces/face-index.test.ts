import { describe, expect, it } from "vitest";
import { compactDescriptor } from "../../../data/photo-faces";
import { FaceIndex, SAME_PERSON_DISTANCE } from "./face-index";
import { DESCRIPTOR_LENGTH } from "./faceres";

/** A unit vector along `axis`, turned towards `towards` by `angle` radians. */
function unit(axis: number, towards = (axis + 1) % DESCRIPTOR_LENGTH, angle = 0): Float32Array {
  const v = new Float32Array(DESCRIPTOR_LENGTH);
  v[axis] = Math.cos(angle);
  v[towards] = Math.sin(angle);
  return v;
}

/** The same, as the index keeps it. */
const kept = (...args: Parameters<typeof unit>) => compactDescriptor(unit(...args));

/** The angle between unit vectors at Euclidean distance d. */
const angleFor = (d: number) => 2 * Math.asin(d / 2);

describe("face index", () => {
  it("finds the photos within the distance, nearest first, each photo once at its nearest face", () => {
    const index = new FaceIndex();
    index.add("far", kept(0, 1, angleFor(SAME_PERSON_DISTANCE + 0.05)));
    index.add("group", kept(0, 2, angleFor(0.3)));
    index.add("group", kept(0, 3, angleFor(0.1)));
    index.add("close", kept(0, 4, angleFor(0.2)));
    index.add("other", kept(5));

    const matches = index.search(unit(0));

    expect(matches.map((m) => m.photoId)).toEqual(["group", "close"]);
    // One signed byte a value moves a distance by less than 0.005.
    expect(matches.map((m) => m.distance)).toEqual([expect.closeTo(0.1, 2), expect.closeTo(0.2, 2)]);
    expect(index.search(unit(0), SAME_PERSON_DISTANCE + 0.1).map((m) => m.photoId)).toContain("far");
  });

  it("grows past its first allocation and still finds the last face added", () => {
    const index = new FaceIndex();
    for (let i = 0; i < 3000; i++) index.add(`photo-${i}`, kept(i % 100));
    index.add("needle", kept(120));

    expect(index.size).toBe(3001);
    expect(index.search(unit(120))).toEqual([{ photoId: "needle", distance: expect.closeTo(0, 2) }]);
  });

  it("refuses a descriptor of the wrong length", () => {
    expect(() => new FaceIndex().add("photo", compactDescriptor(new Float32Array(128)))).toThrow(/1024/);
  });
});
