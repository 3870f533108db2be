import type { EventConfigDto } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { draftExample, parseDraft, toDraft } from "./recognition-draft";

const config: EventConfigDto = {
  eventId: 1,
  faceSearch: false,
  faceIndexing: null,
  ocrConfidenceThreshold: 95,
  maxDorsalsPerPhoto: 10,
  dorsalSizeThreshold: 0.15,
  enableMultiDorsalSupport: true,
  minDigits: 2,
  maxDigits: 6,
  allowLeadingZeros: false,
  bibPattern: "^\\d+$",
  configurationVersion: 0,
  updatedAt: null,
};

describe("recognition settings form", () => {
  it("shows decimals with a comma and reads both separators back", () => {
    const draft = toDraft(config);
    expect(draft.dorsalSizeThreshold).toBe("0,15");
    expect(parseDraft(draft)).toEqual({
      config: {
        ocrConfidenceThreshold: 95,
        maxDorsalsPerPhoto: 10,
        dorsalSizeThreshold: 0.15,
        enableMultiDorsalSupport: true,
        minDigits: 2,
        maxDigits: 6,
        allowLeadingZeros: false,
        bibPattern: "^\\d+$",
      },
    });
    expect(parseDraft({ ...draft, minDigits: "7" })).toEqual({
      errors: { minDigits: "Ingresa un número entero entre 1 y el máximo de dígitos" },
    });
    expect(parseDraft({ ...draft, ocrConfidenceThreshold: "97.5" })).toMatchObject({
      config: { ocrConfidenceThreshold: 97.5 },
    });
  });

  it("names each field out of range, empty or not a plain number, in Spanish", () => {
    expect(
      parseDraft({
        ...toDraft(config),
        ocrConfidenceThreshold: "101",
        maxDorsalsPerPhoto: "",
        dorsalSizeThreshold: "0x1",
        enableMultiDorsalSupport: false,
        minDigits: "2",
        maxDigits: "6",
        allowLeadingZeros: false,
      }),
    ).toEqual({
      errors: {
        ocrConfidenceThreshold: "Ingresa un número entre 0 y 100",
        maxDorsalsPerPhoto: "Ingresa un número entero entre 1 y 50",
        dorsalSizeThreshold: "Ingresa un número entre 0 y 1",
      },
    });
    expect(parseDraft({ ...toDraft(config), maxDorsalsPerPhoto: "2,5" })).toEqual({
      errors: { maxDorsalsPerPhoto: "Ingresa un número entero entre 1 y 50" },
    });
  });

  it("builds the bib pattern from plain choices, with a live example, and never loses a custom one", () => {
    const digits = toDraft(config);
    expect(digits).toMatchObject({ format: "none", letters: "" });
    expect(draftExample(digits)).toEqual({ example: "103804", description: "solo números, de 2 a 6 dígitos" });

    const lettered = { ...digits, format: "before" as const, minDigits: "5", maxDigits: "5" };
    expect(draftExample(lettered)).toEqual({ example: "M10380", description: "una letra y 5 dígitos" });
    expect(parseDraft(lettered)).toMatchObject({ config: { bibPattern: "^[A-Z]\\d+$", minDigits: 5 } });
    expect(parseDraft({ ...lettered, format: "after", letters: "mf" })).toMatchObject({
      config: { bibPattern: "^\\d+[MF]$" },
    });
    expect(draftExample({ ...lettered, maxDigits: "" })).toBeNull();
    // Saved and read back, the choices come back as picked.
    expect(toDraft({ ...config, bibPattern: "^[A-Z]\\d+$" })).toMatchObject({ format: "before", letters: "" });

    const custom = toDraft({ ...config, bibPattern: "^(AB|CD)\\d+$" });
    expect(custom).toMatchObject({ format: "custom", storedPattern: "^(AB|CD)\\d+$" });
    expect(draftExample(custom)).toBeNull();
    expect(parseDraft({ ...custom, ocrConfidenceThreshold: "80" })).toMatchObject({
      config: { bibPattern: "^(AB|CD)\\d+$", ocrConfidenceThreshold: 80 },
    });
    expect(parseDraft({ ...custom, storedPattern: "^(\\d+)+$" })).toEqual({
      errors: { bibPattern: expect.stringContaining("repite un grupo") },
    });
  });
});
