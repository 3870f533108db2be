import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { glyphPath, watermarkSvg } from "./watermarks";

/** Mean alpha (0–255) of each cell of a grid over the rendered overlay. */
async function coverage(svg: string, width: number, height: number, cells: number): Promise<number[]> {
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([width, height]);
  const sums = new Array<number>(cells * cells).fill(0);
  const counts = new Array<number>(cells * cells).fill(0);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cell = Math.floor((y * cells) / height) * cells + Math.floor((x * cells) / width);
      sums[cell] = (sums[cell] ?? 0) + (data[(y * width + x) * info.channels + 3] ?? 0);
      counts[cell] = (counts[cell] ?? 0) + 1;
    }
  }
  return sums.map((sum, index) => sum / (counts[index] ?? 1));
}

describe("watermarkSvg", () => {
  it("draws its letters as paths, so no font is needed", () => {
    for (const kind of ["watermarked", "gratis"] as const) {
      const svg = watermarkSvg(kind, 1280, 960);
      expect(svg).not.toContain("<text");
      expect(svg).toContain('width="1280" height="960"');
    }
  });

  it("covers every part of a paid preview, so no crop escapes it", async () => {
    for (const [width, height] of [
      [1280, 960],
      [960, 1280],
      [400, 300],
    ] as const) {
      const cells = await coverage(watermarkSvg("watermarked", width, height), width, height, 4);
      for (const alpha of cells) expect(alpha).toBeGreaterThan(4);
    }
  });

  it("marks a free photo more lightly than a paid one", async () => {
    const mean = async (kind: "watermarked" | "gratis") =>
      (await coverage(watermarkSvg(kind, 1280, 960), 1280, 960, 1))[0] ?? 0;
    expect(await mean("gratis")).toBeGreaterThan(0);
    expect(await mean("gratis")).toBeLessThan(await mean("watermarked"));
  });
});

describe("glyphPath", () => {
  it("lays letters out left to right and refuses one it cannot draw", () => {
    expect(glyphPath("L").d).toBe("M0 0L0 6L4 6");
    expect(glyphPath("LL").d).toBe("M0 0L0 6L4 6M6 0L6 6L10 6");
    expect(glyphPath("LL").width).toBe(10);
    expect(() => glyphPath("X")).toThrow(/X/);
  });
});
