import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { confirmedBy, ctcGreedyDecode, parseDictionary } from "./ctc";
import { OCR_MODEL_FILES } from "./models";

/** One row per time step; `best` gets `p`, the rest share what is left. */
function steps(classes: number, ...rows: [best: number, p: number][]): Float32Array {
  const probs = new Float32Array(rows.length * classes);
  rows.forEach(([best, p], t) => {
    for (let c = 0; c < classes; c++) probs[t * classes + c] = c === best ? p : (1 - p) / (classes - 1);
  });
  return probs;
}

describe("ctcGreedyDecode", () => {
  const alphabet = ["1", "2", " "];

  it("collapses repeats, drops blanks and keeps a repeat separated by a blank", () => {
    const probs = steps(4, [1, 0.9], [1, 0.6], [0, 0.99], [1, 0.8], [2, 0.7], [3, 0.95], [2, 0.5], [2, 0.9], [0, 0.9]);
    const decoded = ctcGreedyDecode(probs, 9, 4, alphabet);
    expect(decoded.chars.join("")).toBe("112 2");
    // The probability of the first step of each run, as PaddleOCR reports it.
    expect(decoded.confidences).toEqual([0.9, 0.8, 0.7, 0.95, 0.5].map(Math.fround));
  });

  it("reads nothing from blanks only", () => {
    expect(ctcGreedyDecode(steps(4, [0, 0.9], [0, 0.8]), 2, 4, alphabet)).toEqual({ chars: [], confidences: [] });
  });
});

describe("confirmedBy", () => {
  it("counts a character misread only when both reads misread it", () => {
    const first = { chars: ["3", "2", "9", "2"], confidences: [0.99, 0.6, 0.9, 0.5] };
    const second = { chars: ["3", "2", "9", "2"], confidences: [0.5, 0.7, 0.9, 0] };

    const confirmed = confirmedBy(first, second);

    expect(confirmed.chars).toEqual(["3", "2", "9", "2"]);
    expect(confirmed.confidences.map((p) => Number(p.toFixed(4)))).toEqual([0.995, 0.88, 0.99, 0.5]);
  });

  it("refuses a second read of other characters", () => {
    const read = (chars: string[]) => ({ chars, confidences: chars.map(() => 0.9) });
    expect(() => confirmedBy(read(["3", "2"]), read(["3", "7"]))).toThrow();
  });
});

describe("parseDictionary", () => {
  it("appends PaddleOCR's space and ignores a final newline", () => {
    expect(parseDictionary("a\nb\n")).toEqual(["a", "b", " "]);
    expect(parseDictionary("a\r\nb")).toEqual(["a", "b", " "]);
  });

  it("gives the shipped dictionary the size of the recognition model's output (6625 classes with the blank)", () => {
    expect(parseDictionary(readFileSync(OCR_MODEL_FILES.dictionary, "utf8"))).toHaveLength(6624);
  });
});
