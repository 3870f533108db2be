import { describe, expect, it } from "vitest";
import { imageContentType } from "./constants";

describe("imageContentType", () => {
  it("trusts an accepted browser type", () => {
    expect(imageContentType({ name: "a.jpg", type: "image/jpeg" })).toBe("image/jpeg");
  });

  it("falls back to the extension when the browser gives no type or a generic one, as phones do for HEIC", () => {
    expect(imageContentType({ name: "IMG_0001.HEIC", type: "" })).toBe("image/heic");
    expect(imageContentType({ name: "IMG_0002.heif", type: "application/octet-stream" })).toBe("image/heif");
  });

  it("never yields a type a browser would run: a page or script is refused, or taken as the image its name says", () => {
    expect(imageContentType({ name: "notes.pdf", type: "application/pdf" })).toBeNull();
    expect(imageContentType({ name: "x.html", type: "text/html" })).toBeNull();
    expect(imageContentType({ name: "x.svg", type: "image/svg+xml" })).toBeNull();
    expect(imageContentType({ name: "photo.jpg", type: "text/html" })).toBe("image/jpeg");
  });
});
