import { describe, expect, it } from "vitest";
import {
  compressedSize,
  compressionRules,
  jpegName,
  needsCompression,
  skipsCompressionByType,
  smallerOf,
} from "./compression";

const MB = 1024 * 1024;

describe("phone compression rules (spec §9)", () => {
  it("leaves HEIC and HEIF alone, by type or by extension", () => {
    expect(skipsCompressionByType({ name: "IMG_1.HEIC", type: "" })).toBe(true);
    expect(skipsCompressionByType({ name: "foto", type: "image/heif" })).toBe(true);
    expect(skipsCompressionByType({ name: "foto.heif", type: "application/octet-stream" })).toBe(true);
    expect(skipsCompressionByType({ name: "foto.jpg", type: "image/jpeg" })).toBe(false);
  });

  it("skips a photo with both sides at most 1920 px and under 5 MB, compresses anything else", () => {
    expect(needsCompression({ width: 1920, height: 1080 }, 5 * MB - 1)).toBe(false);
    expect(needsCompression({ width: 1920, height: 1920 }, 1 * MB)).toBe(false);
    expect(needsCompression({ width: 1920, height: 1080 }, 5 * MB)).toBe(true);
    expect(needsCompression({ width: 1921, height: 1080 }, 1 * MB)).toBe(true);
    expect(needsCompression({ width: 1080, height: 4000 }, 1 * MB)).toBe(true);
  });

  it("scales the longest side to 1920 px, keeping the shape, and never enlarges", () => {
    expect(compressedSize({ width: 4000, height: 3000 })).toEqual({ width: 1920, height: 1440 });
    expect(compressedSize({ width: 3000, height: 4000 })).toEqual({ width: 1440, height: 1920 });
    expect(compressedSize({ width: 1800, height: 1200 })).toEqual({ width: 1800, height: 1200 });
  });

  it("uses the re-encoded bytes only when they are smaller", () => {
    const original = { size: 6 * MB };
    expect(smallerOf(original, { size: 2 * MB })).toEqual({ size: 2 * MB });
    expect(smallerOf(original, { size: 7 * MB })).toBe(original);
    expect(smallerOf(original, null)).toBe(original);
  });

  it("re-encodes as JPEG at quality 0.8 and gives up after 30 s", () => {
    expect(compressionRules).toMatchObject({ quality: 0.8, timeoutMs: 30_000, maxSide: 1920, smallBytes: 5 * MB });
    expect(jpegName("IMG_2001.PNG")).toBe("IMG_2001.jpg");
    expect(jpegName("foto")).toBe("foto.jpg");
  });
});
