import { describe, expect, it } from "vitest";
import { sniffImageType } from "./image-types";

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));

describe("sniffImageType", () => {
  it.each([
    ["jpeg", bytes([0xff, 0xd8, 0xff, 0xe0])],
    ["png", bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ["webp", bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 ")],
    ["tiff", bytes("II*", [0])],
    ["tiff", bytes("MM", [0], "*")],
    ["bmp", bytes("BM", [0, 0])],
    ["gif", bytes("GIF89a")],
    ["heic", bytes([0, 0, 0, 24], "ftypheic")],
  ])("recognises %s", (type, head) => {
    expect(sniffImageType(head)).toBe(type);
  });

  it("rejects files that only claim to be images", () => {
    expect(sniffImageType(Buffer.from("<html><body>not a photo</body></html>"))).toBeUndefined();
    expect(sniffImageType(bytes("PK", [3, 4]))).toBeUndefined();
    expect(sniffImageType(bytes([0, 0, 0, 24], "ftypmp42"))).toBeUndefined();
  });
});
