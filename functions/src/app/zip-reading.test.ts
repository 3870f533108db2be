import { zipSkipReasons } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { classifyEntryContent, classifyEntryName } from "./zip-reading";

describe("ZIP entry names", () => {
  it.each([
    "../evil.jpg",
    "fotos/../../etc/passwd",
    "fotos/..",
    "/etc/passwd",
    "C:/Windows/evil.jpg",
    "c:evil.jpg",
    "fotos\\..\\evil.jpg",
    "fotos\\foto.jpg",
    "foto\0.jpg",
  ])("refuses %j as a path leaving the archive's folder", (name) => {
    expect(classifyEntryName(name)).toEqual({ kind: "skip", reason: zipSkipReasons.unsafePath });
  });

  it.each(["inner.zip", "fotos/mas.ZIP", "a.rar", "b.7z", "c.tar", "d.tar.gz", "e.tgz", "f.bz2", "g.xz"])(
    "skips %j as a nested archive",
    (name) => {
      expect(classifyEntryName(name)).toEqual({ kind: "skip", reason: zipSkipReasons.nestedArchive });
    },
  );

  it.each([
    "fotos/",
    "fotos/dia 1/",
    "__MACOSX/fotos/._meta.jpg",
    ".DS_Store",
    "fotos/.DS_Store",
    "fotos/._meta.jpg",
    ".oculta/foto.jpg",
  ])("ignores %j (a directory or macOS metadata)", (name) => {
    expect(classifyEntryName(name)).toEqual({ kind: "ignore" });
  });

  it.each(["foto.jpg", "fotos/dia 1/IMG_0001.JPG", "notas.txt", "meta..final.jpg", "ñandú/Ñ.heic"])(
    "leaves %j to be judged by its bytes",
    (name) => {
      expect(classifyEntryName(name)).toEqual({ kind: "candidate" });
    },
  );

  it("is checked before macOS metadata, so a hostile name is reported even there", () => {
    expect(classifyEntryName("__MACOSX/../evil.jpg").kind).toBe("skip");
  });
});

describe("ZIP entry contents", () => {
  it("accepts images by their magic bytes", () => {
    expect(classifyEntryContent(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toEqual({ imageType: "jpeg" });
    expect(classifyEntryContent(Buffer.from("89504e470d0a1a0a0000", "hex"))).toEqual({ imageType: "png" });
  });

  it("names archives hiding under another name", () => {
    for (const head of [
      Buffer.from("PK\u0003\u0004rest", "latin1"),
      Buffer.from("PK\u0005\u0006", "latin1"),
      Buffer.from("Rar!\u001a\u0007\u0000", "latin1"),
      Buffer.from("377abcaf271c0004", "hex"),
      Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
      Buffer.concat([Buffer.alloc(257), Buffer.from("ustar\u000000", "latin1")]),
    ]) {
      expect(classifyEntryContent(head)).toEqual({ reason: zipSkipReasons.nestedArchive });
    }
  });

  it("skips anything else, empty files included", () => {
    expect(classifyEntryContent(Buffer.from("hola, no soy una foto"))).toEqual({ reason: zipSkipReasons.notImage });
    expect(classifyEntryContent(Buffer.alloc(0))).toEqual({ reason: zipSkipReasons.notImage });
  });
});
