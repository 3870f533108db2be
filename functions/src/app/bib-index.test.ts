import type { DetectedBib } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { effectiveBibs } from "./bib-index";

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
