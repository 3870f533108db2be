import { describe, expect, it } from "vitest";
import { PermanentError } from "./errors";
import { decodeHeic } from "./heic";

// Decoding real HEIC (and the pixel limit) is covered by tests/integration/heic.test.ts, which
// writes a genuine HEVC-in-HEIF file; here only the refusals that need no image.
describe("decodeHeic", () => {
  it("refuses a file that is not HEIF with a permanent error", async () => {
    await expect(decodeHeic(Buffer.from("<html>hola</html> not an image at all"))).rejects.toBeInstanceOf(
      PermanentError,
    );
  });

  it("refuses a HEIF header with nothing behind it", async () => {
    const ftypOnly = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypheic\0\0\0\0mif1heic")]);
    await expect(decodeHeic(ftypOnly)).rejects.toThrow(/HEIC/);
  });
});
