import type { DetectedBib } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { effectiveBibs, publishedBibs } from "./bib-index";

const machine = (number: string, confidence = 97): DetectedBib => ({
  number,
  confidence,
  box: { left: 0.1, top: 0.2, width: 0.1, height: 0.05 },
  source: "machine",
});

describe("effectiveBibs", () => {
  it("is the machine's bibs when nobody corrected them", () => {
    expect(effectiveBibs([machine("12"), machine("34")], { added: [], removed: [] })).toEqual([
      machine("12"),
      machine("34"),
    ]);
  });

  it("lets manual removals and additions win over the machine", () => {
    const bibs = effectiveBibs([machine("12"), machine("34")], { added: ["56"], removed: ["12"] });
    expect(bibs).toEqual([machine("34"), { number: "56", confidence: 100, box: null, source: "manual" }]);
  });

  it("keeps the machine's read (with its box) when a manual tag names the same number", () => {
    expect(effectiveBibs([machine("12")], { added: ["12"], removed: [] })).toEqual([machine("12")]);
  });
});

describe("publishedBibs", () => {
  const listed = new Set(["1234", "56"]);

  it("publishes every read without a start list", () => {
    expect(publishedBibs([machine("1284")], { added: [], removed: [] }, undefined)).toEqual({
      bibs: [machine("1284")],
      suggestions: [],
    });
  });

  it("publishes listed reads only; the others wait as suggestions with their nearest listed bibs", () => {
    expect(
      publishedBibs([machine("1234"), machine("1284"), machine("999")], { added: [], removed: [] }, listed),
    ).toEqual({
      bibs: [machine("1234")],
      suggestions: [
        { number: "1284", nearest: ["1234"] },
        { number: "999", nearest: [] },
      ],
    });
  });

  it("settles a suggestion once its read is removed or added by hand", () => {
    expect(publishedBibs([machine("1284")], { added: ["1234"], removed: ["1284"] }, listed)).toEqual({
      bibs: [{ number: "1234", confidence: 100, box: null, source: "manual" }],
      suggestions: [],
    });
    expect(publishedBibs([machine("1284")], { added: ["1284"], removed: [] }, listed).suggestions).toEqual([]);
  });
});
