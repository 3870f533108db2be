import { describe, expect, it } from "vitest";
import {
  type BibFormat,
  bibExample,
  bibFormatOf,
  bibPatternMessages,
  bibPatternOf,
  bibPatternProblem,
  describeBibFormat,
  digitsOnlyPattern,
  isBibText,
  matchesBibPattern,
  normaliseBib,
  printedBib,
} from "./bib-format";
import { defaultEventConfig } from "./constants";
import { eventRecognitionConfig } from "./staff-requests";

const fiveDigits = { minDigits: 5, maxDigits: 5 };

describe("normaliseBib", () => {
  it("keeps a bib as printed, in capitals, without the leading zeros of padding", () => {
    expect(normaliseBib(" m10380 ")).toBe("M10380");
    expect(normaliseBib("0891")).toBe("891");
    expect(normaliseBib("000")).toBe("0");
    expect(normaliseBib("M0380")).toBe("M0380");
  });

  it("takes a gap, hyphen, dot or slash between the letter and the number as print, never one between digits", () => {
    expect(normaliseBib("M 10380")).toBe("M10380");
    expect(normaliseBib("m-10380")).toBe("M10380");
    expect(normaliseBib("M. 10380")).toBe("M10380");
    expect(normaliseBib("10380 / F")).toBe("10380F");
    expect(normaliseBib("AB 12")).toBe("AB12");
    expect(normaliseBib("12 34")).toBe("12 34");
    expect(normaliseBib("12-34")).toBe("12-34");
    expect(normaliseBib("M 0380")).toBe("M0380");
    expect(printedBib(" m 0891 ")).toBe("M0891");
  });

  it("tells typed text that could be a bib from anything else", () => {
    expect(isBibText("m10380")).toBe(true);
    expect(isBibText("4821")).toBe(true);
    expect(isBibText("MX")).toBe(false);
    expect(isBibText("M-10380")).toBe(true);
    expect(isBibText("M 10380")).toBe(true);
    expect(isBibText("12 34")).toBe(false);
    expect(isBibText("M--")).toBe(false);
    expect(isBibText("1234567890123")).toBe(false);
  });
});

describe("the format choices and the pattern", () => {
  const choices: [BibFormat, string, string, string][] = [
    [{ placement: "none", letters: "" }, digitsOnlyPattern, "10380", "solo números, 5 dígitos"],
    [{ placement: "before", letters: "" }, "^[A-Z]\\d+$", "M10380", "una letra y 5 dígitos"],
    [{ placement: "before", letters: "m" }, "^M\\d+$", "M10380", "la letra M y 5 dígitos"],
    [{ placement: "after", letters: "" }, "^\\d+[A-Z]$", "10380A", "5 dígitos y una letra"],
    [{ placement: "after", letters: "FM" }, "^\\d+[FM]$", "10380F", "5 dígitos y una letra (F o M)"],
  ];

  it.each(choices)("%o builds %s, e.g. %s", (format, pattern, example, description) => {
    expect(bibPatternOf(format)).toBe(pattern);
    expect(bibFormatOf(pattern, fiveDigits)).toEqual({ ...format, letters: format.letters.toUpperCase() });
    expect(bibExample(format, fiveDigits)).toBe(example);
    expect(matchesBibPattern(example, pattern)).toBe(true);
    expect(describeBibFormat(format, fiveDigits)).toBe(description);
    expect(bibPatternProblem(pattern)).toBeUndefined();
  });

  it("describes a range of digits and uses the event's longest bib as the example", () => {
    const format: BibFormat = { placement: "before", letters: "" };
    expect(describeBibFormat(format, { minDigits: 3, maxDigits: 4 })).toBe("una letra y de 3 a 4 dígitos");
    expect(bibExample(format, { minDigits: 3, maxDigits: 4 })).toBe("M1038");
  });

  it("reads a pattern that spells the event's own digit count as a choice", () => {
    expect(bibFormatOf("^[A-Z]\\d{5}$", fiveDigits)).toEqual({ placement: "before", letters: "" });
    expect(bibFormatOf("^[A-Z]\\d{4,5}$", { minDigits: 4, maxDigits: 5 })).toEqual({
      placement: "before",
      letters: "",
    });
  });

  it("leaves what the choices cannot say to a custom format", () => {
    expect(bibFormatOf("^[A-Z]\\d{4,5}$", fiveDigits)).toBeNull();
    expect(bibFormatOf("^M\\d+F$", fiveDigits)).toBeNull();
    expect(bibFormatOf("^(AB|CD)\\d+$", fiveDigits)).toBeNull();
    expect(bibFormatOf("^[A-Z]{2}\\d+$", fiveDigits)).toBeNull();
  });
});

describe("bibPatternProblem", () => {
  it("takes the default and the usual letter formats", () => {
    expect(bibPatternProblem(defaultEventConfig.bibPattern)).toBeUndefined();
    expect(bibPatternProblem("^[A-Z]\\d{4,5}$")).toBeUndefined();
    expect(bibPatternProblem("^(?:M|F)\\d+$")).toBeUndefined();
    expect(bibPatternProblem("^(?<cat>[A-Z])?\\d+$")).toBeUndefined();
  });

  it("refuses, in Spanish, patterns too long, broken, empty-matching or prone to catastrophic backtracking", () => {
    expect(bibPatternProblem(`^${"\\d".repeat(60)}$`)).toBe(bibPatternMessages.tooLong);
    expect(bibPatternProblem("^[A-Z\\d+$")).toBe(bibPatternMessages.invalid);
    expect(bibPatternProblem("^\\d*$")).toBe(bibPatternMessages.matchesEmpty);
    expect(bibPatternProblem("")).toBe(bibPatternMessages.matchesEmpty);
    expect(bibPatternProblem("^(\\d+)+$")).toBe(bibPatternMessages.nestedQuantifiers);
    expect(bibPatternProblem("^(?:[A-Z]\\d*)*\\d$")).toBe(bibPatternMessages.nestedQuantifiers);
    expect(bibPatternProblem("^(a|ab){2,}\\d$")).toBe(bibPatternMessages.nestedQuantifiers);
    expect(bibPatternProblem("^((\\d)+)?\\d$")).toBeUndefined();
  });

  it("is the settings API's rule; a save without the field leaves the stored format alone", () => {
    const base = { ...defaultEventConfig };
    const { bibPattern: _omitted, ...legacy } = base;
    expect(eventRecognitionConfig.parse(legacy).bibPattern).toBeUndefined();
    expect(eventRecognitionConfig.parse(base).bibPattern).toBe(digitsOnlyPattern);
    const refused = eventRecognitionConfig.safeParse({ ...base, bibPattern: "^(\\d+)+$" });
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({ path: ["bibPattern"], message: bibPatternMessages.nestedQuantifiers }),
    ]);
  });
});
