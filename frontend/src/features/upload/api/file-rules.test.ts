import { limits } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { fileKey, partitionFiles, rejectionMessages } from "./file-rules";

const file = (name: string, type: string, size = 1000) => ({ name, type, size, lastModified: 1 });

describe("partitionFiles", () => {
  it("splits oversized, unsupported, empty and repeated files from the accepted ones", () => {
    const ok = file("ok.jpg", "image/jpeg");
    const big = file("big.jpg", "image/jpeg", limits.photoMaxBytes + 1);
    const pdf = file("doc.pdf", "application/pdf");
    const empty = file("empty.png", "image/png", 0);
    const selection = partitionFiles([ok, big, pdf, empty, { ...ok }], new Set());
    expect(selection.accepted).toEqual([ok]);
    expect(selection.tooLarge).toEqual([big]);
    expect(selection.unsupported).toEqual([pdf]);
    expect(selection.empty).toEqual([empty]);
  });

  it("skips files already selected", () => {
    const ok = file("ok.jpg", "image/jpeg");
    expect(partitionFiles([ok], new Set([fileKey(ok)])).accepted).toEqual([]);
  });

  it("accepts a file of exactly the maximum size", () => {
    const edge = file("edge.jpg", "image/jpeg", limits.photoMaxBytes);
    expect(partitionFiles([edge], new Set()).accepted).toEqual([edge]);
  });
});

describe("rejectionMessages", () => {
  it("names the rejected files in Spanish and shortens long lists", () => {
    const tooLarge = Array.from({ length: 7 }, (_, index) => file(`f${index}.jpg`, "image/jpeg"));
    const [line] = rejectionMessages({ accepted: [], tooLarge, unsupported: [], empty: [] });
    expect(line).toBe(
      "Archivos demasiado grandes (máximo 50 MB por foto): f0.jpg, f1.jpg, f2.jpg, f3.jpg, f4.jpg y 2 más",
    );
  });
});
