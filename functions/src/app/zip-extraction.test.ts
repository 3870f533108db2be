import { describe, expect, it } from "vitest";
import { zipPhotoId } from "./zip-extraction";

describe("photo ids of a ZIP's entries", () => {
  it("are the same for the same entry on every run and distinct across entries", () => {
    const batch = "mi0abcdef0123456789abcdef0123";
    expect(zipPhotoId(batch, 7)).toBe(zipPhotoId(batch, 7));
    expect(zipPhotoId(batch, 7)).not.toBe(zipPhotoId(batch, 70));
    expect(zipPhotoId(batch, 65_534)).toMatch(/^[a-z0-9]{10,40}$/);
  });
});
