import { describe, expect, it } from "vitest";
import { boxesFromProbabilityMap, type DetectedBox, type Point } from "./db-postprocess";

const WIDTH = 120;
const HEIGHT = 80;

/** A probability map with `p` wherever `inside` holds for the pixel centre. */
function map(...regions: [inside: (x: number, y: number) => boolean, p: number][]): Float32Array {
  const prob = new Float32Array(WIDTH * HEIGHT).fill(0.02);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      for (const [inside, p] of regions) if (inside(x, y)) prob[y * WIDTH + x] = p;
    }
  }
  return prob;
}

const rectangle = (x0: number, y0: number, x1: number, y1: number) => (x: number, y: number) =>
  x >= x0 && x <= x1 && y >= y0 && y <= y1;

function expectPoint(actual: Point, x: number, y: number, tolerance = 0.01) {
  expect(Math.abs(actual.x - x)).toBeLessThanOrEqual(tolerance);
  expect(Math.abs(actual.y - y)).toBeLessThanOrEqual(tolerance);
}

const length = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

function single(boxes: DetectedBox[]): DetectedBox {
  expect(boxes).toHaveLength(1);
  return boxes[0] as DetectedBox;
}

describe("boxesFromProbabilityMap", () => {
  it("grows an upright region by area × 1.5 / perimeter on every side, corners clockwise from top-left", () => {
    const box = single(boxesFromProbabilityMap(map([rectangle(10, 20, 49, 29), 0.9]), WIDTH, HEIGHT));
    // Pixel centres span 39 × 9.
    const d = (39 * 9 * 1.5) / (2 * (39 + 9));
    const [tl, tr, br, bl] = box.quad;
    expectPoint(tl, 10 - d, 20 - d);
    expectPoint(tr, 49 + d, 20 - d);
    expectPoint(br, 49 + d, 29 + d);
    expectPoint(bl, 10 - d, 29 + d);
    expect(box.score).toBeCloseTo(0.9, 5);
  });

  it("follows a rotated region", () => {
    const angle = (20 * Math.PI) / 180;
    const [cx, cy, w, h] = [60, 40, 60, 14];
    const rotated = (x: number, y: number) => {
      const u = (x - cx) * Math.cos(angle) + (y - cy) * Math.sin(angle);
      const v = -(x - cx) * Math.sin(angle) + (y - cy) * Math.cos(angle);
      return Math.abs(u) <= w / 2 && Math.abs(v) <= h / 2;
    };
    const [tl, tr, br, bl] = single(boxesFromProbabilityMap(map([rotated, 0.8]), WIDTH, HEIGHT)).quad;
    expect((Math.atan2(tr.y - tl.y, tr.x - tl.x) * 180) / Math.PI).toBeCloseTo(20, 0);
    const d = (w * h * 1.5) / (2 * (w + h));
    expect(Math.abs(length(tl, tr) - (w + 2 * d))).toBeLessThan(2);
    expect(Math.abs(length(tl, bl) - (h + 2 * d))).toBeLessThan(2);
    expectPoint({ x: (tl.x + br.x) / 2, y: (tl.y + br.y) / 2 }, cx, cy, 1);
  });

  it("keeps separate regions apart and drops faint and tiny ones", () => {
    const boxes = boxesFromProbabilityMap(
      map(
        [rectangle(5, 5, 40, 15), 0.95],
        [rectangle(60, 5, 100, 15), 0.9],
        // Above the pixel threshold (0.3) but below the box threshold (0.6).
        [rectangle(5, 40, 60, 55), 0.45],
        // Shorter side under 3 map pixels.
        [rectangle(80, 60, 81, 61), 0.99],
      ),
      WIDTH,
      HEIGHT,
    );
    const centres = boxes.map((box) => (box.quad[0].x + box.quad[1].x) / 2).sort((a, b) => a - b);
    expect(centres).toHaveLength(2);
    expect(centres[0]).toBeCloseTo(22.5, 5);
    expect(centres[1]).toBeCloseTo(80, 5);
  });

  it("finds nothing in an empty map", () => {
    expect(boxesFromProbabilityMap(map(), WIDTH, HEIGHT)).toEqual([]);
  });
});
