import type { PhotoDto } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { type PhotoPages, photosOf, replacePhoto, unbibbedCountLabel } from "./photo-pages";

function photo(id: string, bibs: string[] = []): PhotoDto {
  return {
    id,
    eventId: 1,
    filename: `${id}.jpg`,
    originalFilename: `${id}.jpg`,
    detectedDorsals: bibs,
    bibs: bibs.map((number) => ({ number, confidence: 99, box: null, source: "machine" })),
    manualBibs: { added: [], removed: [] },
    processed: true,
    processingStatus: "successful",
    failureReason: null,
    uploadedAt: "2026-01-01T00:00:00.000Z",
    processedAt: "2026-01-01T00:00:01.000Z",
    thumbnailUrl: `https://img/${id}-thumb?sig=old`,
    webUrl: `https://img/${id}-web?sig=old`,
    previewKind: "clean",
  };
}

const pages = (...lists: PhotoDto[][]): PhotoPages => ({
  pages: lists.map((photos, index) => ({ photos, cursor: index < lists.length - 1 ? `c${index}` : null })),
  pageParams: lists.map((_, index) => (index === 0 ? null : `c${index - 1}`)),
});

describe("replacePhoto", () => {
  it("puts the server's answer in place and keeps the image URLs already shown", () => {
    const data = pages([photo("a"), photo("b")], [photo("c")]);
    const answer = { ...photo("c", ["77"]), thumbnailUrl: "https://img/c-thumb?sig=new", webUrl: null };
    const next = replacePhoto(data, answer);
    expect(photosOf(next).map((p) => p.detectedDorsals)).toEqual([[], [], ["77"]]);
    expect(photosOf(next)[2]?.thumbnailUrl).toBe("https://img/c-thumb?sig=old");
    expect(photosOf(next)[2]?.webUrl).toBe("https://img/c-web?sig=old");
    expect(next?.pageParams).toEqual(data.pageParams);
    // Other pages are left as they were.
    expect(next?.pages[0]).toBe(data.pages[0]);
  });

  it("leaves a list that does not hold the photo untouched", () => {
    const data = pages([photo("a")]);
    expect(replacePhoto(data, photo("z", ["1"]))).toBe(data);
    expect(replacePhoto(undefined, photo("z"))).toBeUndefined();
  });
});

describe("unbibbedCountLabel", () => {
  it("counts the listed photos still without a bib, with '+' while pages remain", () => {
    const data = pages([photo("a"), photo("b", ["77"]), photo("c")]);
    expect(unbibbedCountLabel(data, false)).toBe("2");
    expect(unbibbedCountLabel(data, true)).toBe("2+");
    expect(unbibbedCountLabel(undefined, false)).toBeNull();
  });
});
