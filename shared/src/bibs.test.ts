import { describe, expect, it } from "vitest";
import {
  type BibRuleConfig,
  checkManualBib,
  defaultBibRules,
  extractBibs,
  type FaceCandidate,
  judgeWord,
  manualBibMessages,
  type WordCandidate,
} from "./bibs";

/** A runner's face and, a face height below the chin, a bib whose digits are 40% of a face high. */
const face: FaceCandidate = { box: { left: 0.45, top: 0.2, width: 0.1, height: 0.12 } };
const onChest = { left: 0.44, top: 0.44, width: 0.12, height: 0.048 };
const word = (text: string, confidence = 99, box = onChest): WordCandidate => ({ text, confidence, box });
const rules: BibRuleConfig = { ...defaultBibRules, ocrConfidenceThreshold: 90 };
const judge = (w: WordCandidate, faces: FaceCandidate[] = [face], r: BibRuleConfig = rules) => judgeWord(w, r, faces);

describe("extractBibs", () => {
  it("keeps a digit-only word on a runner's chest", () => {
    expect(extractBibs([word("1234"), word("RUN")], rules, [face])).toEqual([
      { number: "1234", confidence: 99, box: onChest },
    ]);
  });

  it("keeps reads when no face was detected: the person rules need a face to judge by", () => {
    const banner = { left: 0.3, top: 0.05, width: 0.12, height: 0.048 };
    expect(extractBibs([word("2011", 99, banner)], rules, []).map((b) => b.number)).toEqual(["2011"]);
    expect(extractBibs([word("2011", 99, banner)], rules).map((b) => b.number)).toEqual(["2011"]);
  });

  it("keeps the most confident read of a number once", () => {
    const bibs = extractBibs([word("891", 96), word("891", 97)], rules, [face]);
    expect(bibs).toEqual([{ number: "891", confidence: 97, box: onChest }]);
  });

  it("strips leading zeros when the event's bibs are zero-padded", () => {
    const padded = { ...rules, allowLeadingZeros: true };
    expect(extractBibs([word("0891")], padded, [face]).map((b) => b.number)).toEqual(["891"]);
  });

  it("caps the bibs per photo, most confident first, and keeps one without multi-bib support", () => {
    const words = [word("11", 96), word("22", 99), word("33", 97)];
    expect(extractBibs(words, { ...rules, maxDorsalsPerPhoto: 2 }, [face]).map((b) => b.number)).toEqual(["22", "33"]);
    expect(extractBibs(words, { ...rules, enableMultiDorsalSupport: false }, [face]).map((b) => b.number)).toEqual([
      "22",
    ]);
  });
});

describe("bib rules: every rejection", () => {
  it("accepts the reference bib", () => {
    expect(judge(word("1234"))).toBeUndefined();
  });

  it("rejects words that are not only digits, by default", () => {
    expect(judge(word("12a4"))).toBe("pattern");
    expect(judge(word("1:33:04"))).toBe("pattern");
    expect(judge(word(""))).toBe("pattern");
    expect(judge(word("M10380"))).toBe("pattern");
  });

  it("takes the event's letter bibs as printed, in capitals, and counts only their digits", () => {
    const lettered = { ...rules, bibPattern: "^[A-Z]\\d+$", minDigits: 5, maxDigits: 5 };
    expect(judge(word("M10380"), [face], lettered)).toBeUndefined();
    expect(judge(word(" m10380 "), [face], lettered)).toBeUndefined();
    expect(judge(word("10380"), [face], lettered)).toBe("pattern");
    expect(judge(word("M1038"), [face], lettered)).toBe("length");
    expect(judge(word("MX10380"), [face], lettered)).toBe("pattern");
    // The pattern is a whole-read test even when written without anchors.
    expect(judge(word("2M10380"), [face], { ...lettered, bibPattern: "[A-Z]\\d+" })).toBe("pattern");
    // A leading zero marks a lost first digit only on reads that start with it.
    expect(judge(word("M01380"), [face], lettered)).toBeUndefined();
    expect(extractBibs([word("m10380", 95), word("M10380", 97), word("10380")], lettered, [face])).toEqual([
      { number: "M10380", confidence: 97, box: onChest },
    ]);
  });

  it("reads a letter bib printed with a gap or a hyphen as one bib, and never joins two numbers", () => {
    const lettered = { ...rules, bibPattern: "^[A-Z]\\d+$", minDigits: 5, maxDigits: 5 };
    // The engines give the line ("M 10380") and its words ("M", "10380"): the line is the bib.
    expect(extractBibs([word("M 10380", 96), word("M", 99), word("10380", 98)], lettered, [face])).toEqual([
      { number: "M10380", confidence: 96, box: onChest },
    ]);
    expect(extractBibs([word("M-10380", 97)], lettered, [face])).toEqual([
      { number: "M10380", confidence: 97, box: onChest },
    ]);
    expect(judge(word("12 34"), [face], rules)).toBe("pattern");
    expect(judge(word("M 01380"), [face], lettered)).toBeUndefined();
  });

  it("joins a letter printed apart from the number, on its side, when the two stand level in one line", () => {
    const lettered = { ...rules, bibPattern: "^[A-Z]\\d+$", minDigits: 5, maxDigits: 5 };
    const suffixed = { ...lettered, bibPattern: "^\\d+[A-Z]$" };
    // 10380 on the chest, five characters of 0.024 each; the letter a character to its left or right.
    const number = word("10380", 98, onChest);
    const letterAt = (left: number, top = onChest.top, height = onChest.height) =>
      word("M", 95, { left, top, width: 0.02, height });
    const joinedBox = {
      left: 0.396,
      top: 0.44,
      width: expect.closeTo(0.164, 9) as number,
      height: expect.closeTo(0.048, 9) as number,
    };
    expect(extractBibs([letterAt(0.396), number], lettered, [face])).toEqual([
      { number: "M10380", confidence: 95, box: joinedBox },
    ]);
    expect(extractBibs([number, letterAt(0.58)], suffixed, [face])).toEqual([
      expect.objectContaining({ number: "10380M", confidence: 95 }),
    ]);
    // Too far apart, not level, or much smaller: two things, not one bib.
    expect(extractBibs([letterAt(0.3), number], lettered, [face])).toEqual([]);
    expect(extractBibs([letterAt(0.396, 0.5), number], lettered, [face])).toEqual([]);
    expect(extractBibs([letterAt(0.396, 0.45, 0.02), number], lettered, [face])).toEqual([]);
    // Two numbers side by side are never joined, and a digits-only event publishes the number alone.
    expect(
      extractBibs([word("103", 99, { ...onChest, width: 0.05 }), word("80", 99, { ...onChest, left: 0.5 })], rules, [
        face,
      ]).map((bib) => bib.number),
    ).toEqual(["103", "80"]);
    expect(extractBibs([letterAt(0.396), number], rules, [face]).map((bib) => bib.number)).toEqual(["10380"]);
  });

  it("rejects numbers shorter or longer than the configured digits", () => {
    expect(judge(word("7"))).toBe("length");
    expect(judge(word("1234567"))).toBe("length");
    expect(judge(word("7"), [face], { ...rules, minDigits: 1 })).toBeUndefined();
  });

  it("rejects a leading zero, the mark of a bib whose first digit was lost, unless bibs are zero-padded", () => {
    expect(judge(word("0246"))).toBe("leading-zero");
    expect(judge(word("0246"), [face], { ...rules, allowLeadingZeros: true })).toBeUndefined();
  });

  it("rejects reads below the confidence threshold", () => {
    expect(judge(word("1234", 89.9))).toBe("confidence");
    expect(judge(word("1234", 90))).toBeUndefined();
  });

  it("rejects text that hangs below no detected face: banners, clocks, signs", () => {
    const aboveHeads = { ...onChest, top: 0.05 };
    const besideRunner = { ...onChest, left: 0.8 };
    // Seven face heights below the chin of a face 0.05 high that ends at 0.15.
    const distantFace = { box: { left: 0.45, top: 0.1, width: 0.04, height: 0.05 } };
    const farBelow = { ...onChest, top: 0.15 + 7.5 * 0.05, height: 0.02 };
    expect(judge(word("2008", 99, aboveHeads))).toBe("no-wearer");
    expect(judge(word("1234", 99, besideRunner))).toBe("no-wearer");
    expect(judge(word("1234", 99, farBelow), [distantFace])).toBe("no-wearer");
    expect(judge(word("1234", 99, { ...farBelow, top: 0.15 + 6.5 * 0.05 }), [distantFace])).toBeUndefined();
    expect(judge(word("2008", 99, aboveHeads), [face], { ...rules, requireWearer: false })).toBeUndefined();
  });

  it("accepts a bib on the shorts, off-centre, or under a head leaning forward", () => {
    expect(judge(word("1234", 99, { ...onChest, top: 0.2 + 0.12 + 5 * 0.12 }))).toBeUndefined();
    expect(judge(word("1234", 99, { ...onChest, left: 0.62 }))).toBeUndefined();
    expect(judge(word("1234", 99, { ...onChest, top: 0.28 }))).toBeUndefined();
  });

  it("takes small text on a person by default: the size rule is an event's choice", () => {
    expect(judge(word("2011", 99, { ...onChest, height: 0.005, width: 0.02 }))).toBeUndefined();
  });

  it("when an event sets a size, rejects text on a person too small for a bib, relative to the face", () => {
    const sized = { ...rules, dorsalSizeThreshold: 0.15 };
    // 0.15 × the face's 0.12 = 0.018.
    const tiny = { ...onChest, height: 0.017, width: 0.04 };
    expect(judge(word("2011", 99, tiny), [face], sized)).toBe("too-small");
    expect(judge(word("2011", 99, { ...tiny, height: 0.019 }), [face], sized)).toBeUndefined();
  });

  it("judges size against the largest face the bib could belong to", () => {
    const sized = { ...rules, dorsalSizeThreshold: 0.15 };
    const child = { box: { left: 0.47, top: 0.3, width: 0.04, height: 0.05 } };
    const small = { ...onChest, height: 0.015, width: 0.04 };
    expect(judge(word("1234", 99, small), [child], sized)).toBeUndefined();
    expect(judge(word("1234", 99, small), [child, face], sized)).toBe("too-small");
  });
});

describe("checkManualBib", () => {
  const event = { minDigits: 2, maxDigits: 6, allowLeadingZeros: false, bibPattern: defaultBibRules.bibPattern };

  it("takes a bib the event can have, without its leading zeros", () => {
    expect(checkManualBib(" 4821 ", event)).toEqual({ number: "4821" });
    expect(checkManualBib("042", event)).toEqual({ number: "42" });
  });

  it("refuses, with the event's rule, what its bibs cannot be: nothing is cut", () => {
    expect(checkManualBib("12345678901234567890", event)).toEqual({
      error: "Los dorsales de este evento tienen de 2 a 6 dígitos",
    });
    expect(checkManualBib("7", event)).toEqual({ error: "Los dorsales de este evento tienen de 2 a 6 dígitos" });
    expect(checkManualBib("123", { ...event, minDigits: 4, maxDigits: 4 })).toEqual({
      error: "Los dorsales de este evento tienen 4 dígitos",
    });
    expect(checkManualBib("M10380", event)).toEqual({ error: manualBibMessages.digitsOnly });
    expect(checkManualBib("7x7", event)).toEqual({ error: manualBibMessages.digitsOnly });
    expect(checkManualBib("  ", event)).toEqual({ error: manualBibMessages.required });
  });

  it("lets a zero-padded event's bib be typed without its zeros", () => {
    const padded = { ...event, minDigits: 4, maxDigits: 4, allowLeadingZeros: true };
    expect(checkManualBib("0891", padded)).toEqual({ number: "891" });
    expect(checkManualBib("891", padded)).toEqual({ number: "891" });
    expect(checkManualBib("00891", padded)).toMatchObject({ error: expect.any(String) });
  });

  it("judges a letter event's bib by its format and says what its bibs look like", () => {
    const lettered = { ...event, bibPattern: "^[A-Z]\\d+$", minDigits: 5, maxDigits: 5 };
    expect(checkManualBib(" m10380 ", lettered)).toEqual({ number: "M10380" });
    expect(checkManualBib("M-10380", lettered)).toEqual({ number: "M10380" });
    const format = { error: "Los dorsales de este evento son una letra y 5 dígitos, p. ej. M10380" };
    expect(checkManualBib("10380", lettered)).toEqual(format);
    expect(checkManualBib("M1038", lettered)).toEqual(format);
    expect(checkManualBib("10380M", { ...lettered, bibPattern: "^\\d+[MF]$" })).toEqual({ number: "10380M" });
    expect(checkManualBib("10380X", { ...lettered, bibPattern: "^\\d+[MF]$" })).toEqual({
      error: "Los dorsales de este evento son 5 dígitos y una letra (M o F), p. ej. 10380M",
    });
    expect(checkManualBib("AB12", { ...lettered, bibPattern: "^(AB|CD)\\d{2}$" })).toEqual({
      error: "Ese dorsal no sigue el formato personalizado de los dorsales de este evento (^(AB|CD)\\d{2}$)",
    });
  });
});
