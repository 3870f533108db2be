import type { EventConfigDto } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { parseDraft, toDraft } from "./recognition-draft";

const config: EventConfigDto = {
  eventId: 1,
  ocrConfidenceThreshold: 95,
  maxDorsalsPerPhoto: 10,
  dorsalSizeThreshold: 0.15,
  enableMultiDorsalSupport: true,
  minDigits: 2,
  maxDigits: 6,
  allowLeadingZeros: false,
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
});
