import { describe, expect, it } from "vitest";
import { defaultBibRules, extractBibs, type WordCandidate } from "./bibs";

const box = { left: 0.1, top: 0.1, width: 0.1, height: 0.05 };
const word = (text: string, confidence = 99): WordCandidate => ({ text, confidence, box });

describe("extractBibs", () => {
  it("keeps digit-only words above the confidence threshold", () => {
    const bibs = extractBibs([word("1234"), word("RUN"), word("12a4"), word("5678", 50)], defaultBibRules);
    expect(bibs.map((b) => b.number)).toEqual(["1234"]);
  });

  it("strips leading zeros and keeps the most confident read of a number once", () => {
    const bibs = extractBibs([word("0891", 96), word("891", 97)], defaultBibRules);
    expect(bibs).toEqual([{ number: "891", confidence: 97, box }]);
  });

  it("rejects numbers longer than the configured digits", () => {
    expect(extractBibs([word("1234567")], defaultBibRules)).toEqual([]);
  });

  it("caps the bibs per photo, most confident first", () => {
    const words = [word("11", 96), word("22", 99), word("33", 97)];
    expect(extractBibs(words, { ...defaultBibRules, maxDorsalsPerPhoto: 2 }).map((b) => b.number)).toEqual([
      "22",
      "33",
    ]);
    expect(extractBibs(words, { ...defaultBibRules, enableMultiDorsalSupport: false }).map((b) => b.number)).toEqual([
      "22",
    ]);
  });
});
