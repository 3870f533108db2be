import { describe, expect, it } from "vitest";
import { toWinAnsi } from "./analytics-pdf";
import { filenamePart } from "./analytics-report";

describe("the analytics report's text", () => {
  it("keeps Spanish as it is written: accents, ñ, ¿¡, dashes and the euro are WinAnsi", () => {
    const spanish = "Media Maratón de Señoritas — ¿Año? ¡Sí! · “Ñandú” … 5 €";
    expect(toWinAnsi(spanish)).toBe(spanish);
  });

  it("folds what the standard fonts cannot draw: the accent off a Latin letter, '?' for the rest", () => {
    expect(toWinAnsi("Łódź Kőszeg")).toBe("?ódz Koszeg");
    expect(toWinAnsi("Carrera 🏃 10K")).toBe("Carrera ? 10K");
    expect(toWinAnsi("10:04\u202fa.\u00a0m.")).toBe("10:04 a.\u00a0m.");
  });
});

describe("the analytics report's file name", () => {
  it("writes an event's name in lowercase ASCII words joined by hyphens", () => {
    expect(filenamePart("Media Maratón de Señoritas")).toBe("media-maraton-de-senoritas");
    expect(filenamePart("  10K «Bogotá» 2026!  ")).toBe("10k-bogota-2026");
    expect(filenamePart("🏃🏃")).toBe("");
    expect(filenamePart("a".repeat(80))).toHaveLength(60);
  });
});
