import { describe, expect, it } from "vitest";
import { wearerOf, wearerRegion } from "./bib-geometry";

describe("wearerRegion", () => {
  const face = { left: 0.4, top: 0.1, width: 0.05, height: 0.07 };
  const region = wearerRegion(face);
  const inside = (box: { left: number; top: number; width: number; height: number }) =>
    box.left >= region.left - 1e-9 &&
    box.top >= region.top - 1e-9 &&
    box.left + box.width <= region.left + region.width + 1e-9 &&
    box.top + box.height <= region.top + region.height + 1e-9;

  it("holds every bib-sized box the wearer rule accepts for that face", () => {
    let accepted = 0;
    for (let dx = -0.2; dx <= 0.2; dx += 0.01) {
      for (let dy = -0.1; dy <= 0.6; dy += 0.01) {
        // Up to two faces wide and one face high: bibs, not banners.
        const box = { left: face.left + dx, top: face.top + dy, width: 2 * face.width, height: face.height };
        if (!wearerOf(face, box)) continue;
        accepted++;
        expect(inside(box), JSON.stringify(box)).toBe(true);
      }
    }
    expect(accepted).toBeGreaterThan(100);
  });

  it("stays inside the photo", () => {
    const atCorner = wearerRegion({ left: 0.95, top: 0.9, width: 0.05, height: 0.07 });
    expect(atCorner.left + atCorner.width).toBeLessThanOrEqual(1);
    expect(atCorner.top + atCorner.height).toBeLessThanOrEqual(1);
    expect(atCorner.height).toBeGreaterThan(0);
  });
});
