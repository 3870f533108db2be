import { describe, expect, it } from "vitest";
import { mergeOverlapping, touchesInnerEdge } from "./rects";

describe("mergeOverlapping", () => {
  it("unions overlapping rectangles, transitively, and leaves apart ones alone", () => {
    const merged = mergeOverlapping([
      { left: 0, top: 0, right: 10, bottom: 10 },
      { left: 50, top: 50, right: 60, bottom: 60 },
      { left: 8, top: 8, right: 20, bottom: 12 },
      { left: 19, top: 0, right: 30, bottom: 5 },
    ]);
    expect(merged).toEqual([
      { left: 0, top: 0, right: 30, bottom: 12 },
      { left: 50, top: 50, right: 60, bottom: 60 },
    ]);
  });
});

describe("touchesInnerEdge", () => {
  const window = { left: 100, top: 100, right: 200, bottom: 200 };
  it("flags text cut by a window edge inside the photo", () => {
    expect(touchesInnerEdge({ left: 100, top: 150, right: 120, bottom: 160 }, window, 1000, 1000)).toBe(true);
    expect(touchesInnerEdge({ left: 150, top: 150, right: 199.5, bottom: 160 }, window, 1000, 1000)).toBe(true);
    expect(touchesInnerEdge({ left: 120, top: 120, right: 180, bottom: 180 }, window, 1000, 1000)).toBe(false);
  });
  it("does not flag text at a window edge that is the photo's own edge", () => {
    const corner = { left: 0, top: 0, right: 100, bottom: 100 };
    expect(touchesInnerEdge({ left: 0, top: 0, right: 20, bottom: 10 }, corner, 1000, 1000)).toBe(false);
  });
});
