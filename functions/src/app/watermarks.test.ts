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

/**
 * Where the label's letters landed: the label is the only part drawn in opaque white (the tiled text
 * is translucent), so the box around those pixels is the drawn text box.
 */
async function labelTextBox(svg: string): Promise<{ left: number; top: number; right: number; bottom: number }> {
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const box = { left: info.width, top: info.height, right: -1, bottom: -1 };
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const at = (y * info.width + x) * info.channels;
      const opaqueWhite =
        (data[at + 3] ?? 0) >= 250 && Math.min(data[at] ?? 0, data[at + 1] ?? 0, data[at + 2] ?? 0) >= 240;
      if (!opaqueWhite) continue;
      box.left = Math.min(box.left, x);
      box.top = Math.min(box.top, y);
      box.right = Math.max(box.right, x);
      box.bottom = Math.max(box.bottom, y);
    }
  }
  return box;
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

  /**
   * Issue 17: the label was cut on thumbnails. Galleries show thumbnails as centred squares
   * (object-fit: cover), so the whole label must sit inside the centred square of any image,
   * whatever its size and shape, scaled down when the words would not fit.
   */
  it("keeps the whole label inside the centred square a gallery shows, at any size and shape", async () => {
    for (const kind of ["watermarked", "gratis"] as const) {
      for (const [width, height] of [
        [400, 300],
        [300, 400],
        [400, 400],
        [400, 100],
        [100, 400],
        [1280, 960],
        [960, 1280],
        [1280, 427],
      ] as const) {
        const side = Math.min(width, height);
        const square = { left: (width - side) / 2, top: (height - side) / 2 };
        const text = await labelTextBox(watermarkSvg(kind, width, height));
        const where = `${kind} ${width}×${height}: ${JSON.stringify(text)}`;
        expect(text.right, where).toBeGreaterThan(text.left);
        expect(text.left, where).toBeGreaterThan(square.left);
        expect(text.top, where).toBeGreaterThan(square.top);
        expect(text.right, where).toBeLessThan(square.left + side - 1);
        expect(text.bottom, where).toBeLessThan(square.top + side - 1);
        // Still words, not a smudge: at least a fifth of the square wide.
        expect(text.right - text.left, where).toBeGreaterThan(side / 5);
      }
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
