import { describe, expect, it } from "vitest";
import { holdsCentre, mergeOverlapping, mergeScaled, tilesOf, touchesInnerEdge } from "./rects";

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

describe("mergeScaled", () => {
  it("sees a merged window at the largest scale of the windows in it", () => {
    const merged = mergeScaled([
      { rect: { left: 0, top: 0, right: 10, bottom: 10 }, scale: 1.5 },
      { rect: { left: 5, top: 5, right: 15, bottom: 15 }, scale: 2 },
      { rect: { left: 50, top: 50, right: 60, bottom: 60 }, scale: 1.25 },
    ]);
    expect(merged).toEqual([
      { rect: { left: 0, top: 0, right: 15, bottom: 15 }, scale: 2 },
      { rect: { left: 50, top: 50, right: 60, bottom: 60 }, scale: 1.25 },
    ]);
  });
});

describe("tilesOf", () => {
  it("leaves a window that fits in one tile whole, owning all of it", () => {
    const rect = { left: 10, top: 20, right: 410, bottom: 220 };
    const tiles = tilesOf(rect, 2, 1280, 320);
    expect(tiles).toEqual([{ rect, owned: { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity } }]);
  });

  it("splits a wide window into overlapping tiles no bigger than the limit, covering it exactly", () => {
    const rect = { left: 100, top: 0, right: 1600, bottom: 400 };
    const scale = 2;
    const tiles = tilesOf(rect, scale, 1280, 320);
    expect(tiles).toHaveLength(3);
    for (const tile of tiles) {
      expect((tile.rect.right - tile.rect.left) * scale).toBeLessThanOrEqual(1280 + 1e-9);
      expect(tile.rect.top).toBe(0);
      expect(tile.rect.bottom).toBe(400);
    }
    expect(tiles[0]?.rect.left).toBe(100);
    expect(tiles[2]?.rect.right).toBeCloseTo(1600);
    // Neighbours share 320 detector pixels (160 photo pixels) and split that overlap in the middle.
    expect((tiles[0]?.rect.right ?? 0) - (tiles[1]?.rect.left ?? 0)).toBeCloseTo(160);
    expect(tiles[0]?.owned.right).toBeCloseTo(tiles[1]?.owned.left ?? Number.NaN);
    expect(tiles[0]?.owned.right).toBeCloseTo(((tiles[0]?.rect.right ?? 0) + (tiles[1]?.rect.left ?? 0)) / 2);
  });

  it("ends the last tile exactly at the window's edge, never a rounding error past the photo", () => {
    // These numbers once summed to 4000.0000000000005, and the detector refused to crop past the edge.
    const tiles = tilesOf({ left: 1248.382125741395, top: 0, right: 4000, bottom: 100 }, 1.4299127179011166, 1280, 320);
    expect(tiles.at(-1)?.rect.right).toBe(4000);
  });

  it("keeps text found in two neighbouring tiles once, and text narrower than the overlap whole in one", () => {
    const tiles = tilesOf({ left: 0, top: 0, right: 2000, bottom: 300 }, 1, 1280, 320);
    for (let left = 0; left + 150 <= 2000; left += 7) {
      const text = { left, top: 100, right: left + 150, bottom: 130 };
      const owners = tiles.filter((tile) => holdsCentre(tile.owned, text));
      expect(owners).toHaveLength(1);
      const owner = owners[0]?.rect ?? { left: 0, top: 0, right: 0, bottom: 0 };
      expect(text.left >= owner.left && text.right <= owner.right).toBe(true);
    }
  });
});
