import { describe, expect, it } from "vitest";
import { foundSummary } from "./face-matches";

const photos = (certain: number, lookAlikes: number) => [
  ...Array.from({ length: certain }, () => ({ certain: true })),
  ...Array.from({ length: lookAlikes }, () => ({ certain: false })),
];

describe("foundSummary", () => {
  it("counts the athlete's photos, then the look-alikes to check, in the singular where one", () => {
    expect(foundSummary(photos(2, 0))).toBe("Encontramos 2 fotos tuyas");
    expect(foundSummary(photos(1, 1))).toBe("Encontramos 1 foto tuya, y 1 más en la que podrías aparecer");
    expect(foundSummary(photos(3, 2))).toBe("Encontramos 3 fotos tuyas, y 2 más en las que podrías aparecer");
  });

  it("says so when it found only look-alikes", () => {
    expect(foundSummary(photos(0, 1))).toBe(
      "No estamos seguros de haberte encontrado, pero podrías aparecer en 1 foto: revísala.",
    );
    expect(foundSummary(photos(0, 3))).toBe(
      "No estamos seguros de haberte encontrado, pero podrías aparecer en 3 fotos: revísalas.",
    );
  });
});
