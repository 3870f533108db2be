import { describe, expect, it } from "vitest";
import type { Quad } from "./db-postprocess";
import { type RecognisedRegion, subQuad, toTextDetections } from "./detections";

function region(
  text: string,
  left: number,
  top: number,
  right: number,
  bottom: number,
  confidence = 0.9,
): RecognisedRegion {
  const quad: Quad = [
    { x: left, y: top },
    { x: right, y: top },
    { x: right, y: bottom },
    { x: left, y: bottom },
  ];
  return { quad, chars: [...text], confidences: [...text].map(() => confidence) };
}

describe("toTextDetections", () => {
  it("emits the region as a LINE and its words as WORDs with proportional boxes", () => {
    const line = { ...region("12 345", 0.1, 0.2, 0.4, 0.3), confidences: [0.9, 0.8, 0.5, 1, 1, 1] };
    const [lineDetection, first, second, ...rest] = toTextDetections([line]);
    expect(rest).toHaveLength(0);
    expect(lineDetection).toMatchObject({ type: "LINE", text: "12 345", id: 0 });
    expect(lineDetection?.parentId).toBeUndefined();
    expect(lineDetection?.confidence).toBeCloseTo((100 * (0.9 + 0.8 + 0.5 + 3)) / 6, 5);
    expect(first).toMatchObject({ type: "WORD", text: "12", id: 1, parentId: 0 });
    expect(first?.confidence).toBeCloseTo(85, 5);
    expect(first?.box.left).toBeCloseTo(0.1, 9);
    expect(first?.box.width).toBeCloseTo(0.1, 9);
    expect(second).toMatchObject({ type: "WORD", text: "345", id: 2, parentId: 0, confidence: 100 });
    expect(second?.box.left).toBeCloseTo(0.25, 9);
    expect(second?.box.width).toBeCloseTo(0.15, 9);
    expect(second?.box.top).toBeCloseTo(0.2, 9);
    expect(second?.box.height).toBeCloseTo(0.1, 9);
  });

  it("lists lines top to bottom and left to right within a row, then their words", () => {
    const detections = toTextDetections([
      region("bottom", 0.1, 0.8, 0.3, 0.9),
      region("right", 0.6, 0.21, 0.8, 0.31),
      region("left", 0.1, 0.2, 0.3, 0.3),
    ]);
    expect(detections.map((d) => `${d.type} ${d.id} ${d.parentId ?? "-"} ${d.text}`)).toEqual([
      "LINE 0 - left",
      "LINE 1 - right",
      "LINE 2 - bottom",
      "WORD 3 0 left",
      "WORD 4 1 right",
      "WORD 5 2 bottom",
    ]);
  });

  it("drops blank reads, trims spaces and keeps boxes inside the image", () => {
    const detections = toTextDetections([region("   ", 0.1, 0.1, 0.2, 0.2), region(" 42 ", -0.05, 0.9, 0.2, 1.04)]);
    expect(detections.map((d) => d.text)).toEqual(["42", "42"]);
    const [line] = detections;
    expect(line?.box.left).toBe(0);
    expect(line?.box.top).toBeCloseTo(0.9, 9);
    expect((line?.box.top ?? 0) + (line?.box.height ?? 0)).toBe(1);
  });
});

describe("subQuad", () => {
  const quad: Quad = [
    { x: 10, y: 20 },
    { x: 50, y: 20 },
    { x: 50, y: 30 },
    { x: 10, y: 30 },
  ];

  it("cuts the quad between fractions of its reading direction", () => {
    expect(subQuad(quad, 0.25, 0.5).map((p) => p.x)).toEqual([20, 30, 30, 20]);
  });

  it("extends it beyond 0..1, as the engine's sideways re-read of numbers does", () => {
    const wider = subQuad(quad, -0.125, 1.125);
    expect(wider.map((p) => p.x)).toEqual([5, 55, 55, 5]);
    expect(wider.map((p) => p.y)).toEqual([20, 20, 30, 30]);
  });
});
