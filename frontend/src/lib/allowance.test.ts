import { describe, expect, it } from "vitest";
import { allowanceText, nothingLeft, remainingPerPhoto } from "./allowance";

describe("download allowance wording", () => {
  it("says the allowance is per photo and what a ZIP counts", () => {
    expect(allowanceText(3)).toBe(
      "Cada foto se puede descargar 3 veces. «Descargar todas (ZIP)» cuenta una descarga de cada foto.",
    );
    expect(allowanceText(1, true)).toMatch(/^Con este código, cada foto se puede descargar 1 vez\./);
  });

  it("shows what is left per photo, as a range when photos differ", () => {
    const left = (...counts: number[]) => counts.map((remainingDownloads) => ({ remainingDownloads }));
    expect(remainingPerPhoto(left(2, 2), 3)).toBe("2 de 3 descargas restantes por foto");
    expect(remainingPerPhoto(left(0, 1, 3), 3)).toBe("0 a 3 de 3 descargas restantes por foto");
    expect(nothingLeft(left(0, 1))).toBe(false);
    expect(nothingLeft(left(0, 0))).toBe(true);
  });
});
