import { describe, expect, it } from "vitest";
import { zipEntryNames, zipFilename } from "./original-zip";

describe("download ZIP names", () => {
  it("keeps the photographer's names, safe and unique ignoring case", () => {
    expect(zipEntryNames(["IMG_1.jpg", "img_1.JPG", "IMG_1.jpg", "carpeta/../meta.jpg", "a:b?.jpg", "..", ""])).toEqual(
      ["IMG_1.jpg", "img_1 (2).JPG", "IMG_1 (3).jpg", "meta.jpg", "a_b_.jpg", "foto-6.jpg", "foto-7.jpg"],
    );
  });

  it("names the ZIP in plain ASCII after the event and bib", () => {
    expect(zipFilename("fotos Media Maratón de Bogotá dorsal 5173")).toBe(
      "fotos-media-maraton-de-bogota-dorsal-5173.zip",
    );
    expect(zipFilename("¡¡!!")).toBe("fotos.zip");
  });
});
