import { describe, expect, it } from "vitest";
import { inUploadOrder } from "./photo-view";

describe("inUploadOrder", () => {
  const photo = (id: string, uploadedAt: string, originalFilename: string) => ({ id, uploadedAt, originalFilename });

  it("puts the older upload first, then a batch's files by name, then by id", () => {
    const batch = "2026-11-28T10:00:00.000Z";
    const photos = [
      photo("z", batch, "DSC_0002.jpg"),
      photo("b", batch, "DSC_0001.jpg"),
      photo("a", batch, "DSC_0001.jpg"),
      photo("y", "2026-11-28T09:59:59.999Z", "DSC_0009.jpg"),
    ];
    expect([...photos].sort(inUploadOrder).map((each) => each.id)).toEqual(["y", "a", "b", "z"]);
    expect(
      [...photos]
        .reverse()
        .sort(inUploadOrder)
        .map((each) => each.id),
    ).toEqual(["y", "a", "b", "z"]);
  });
});
