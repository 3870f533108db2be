import { readFileSync } from "node:fs";
import { InferenceSession, Tensor } from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { encodeOnnxModel, type OnnxInitializer, type OnnxNode } from "../faces/onnx-model";
import { OCR_MODEL_FILES } from "../ocr/models";
import { foldAffineOps } from "./fold-affine";
import { decodeMessage, stringOf, stringsOf } from "./protobuf";

const options: InferenceSession.SessionOptions = { intraOpNumThreads: 1, graphOptimizationLevel: "all" };

/** Deterministic values in [-1, 1), so a failure reproduces. */
function values(count: number, seed: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return (state / 2 ** 31) * 2 - 1;
  });
}

function tensor(name: string, dims: number[], seed: number): OnnxInitializer {
  return {
    name,
    dims,
    data: values(
      dims.reduce((a, b) => a * b, 1),
      seed,
    ),
  };
}

const scalar = (name: string, value: number): OnnxInitializer => ({ name, dims: [], data: Float32Array.of(value) });

async function run(model: Uint8Array, input: Tensor): Promise<Float32Array> {
  const session = await InferenceSession.create(model, options);
  try {
    const output = await session.run({ [session.inputNames[0] as string]: input });
    return output[session.outputNames[0] as string]?.data as Float32Array;
  } finally {
    await session.release();
  }
}

function largestDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  return a.reduce((largest, value, i) => Math.max(largest, Math.abs(value - (b[i] as number))), 0);
}

function opsOf(model: Uint8Array): string[] {
  const graph = decodeMessage(decodeMessage(model).find((f) => f.field === 7)?.value as Uint8Array);
  return graph.filter((f) => f.field === 1).map((f) => stringOf(decodeMessage(f.value as Uint8Array), 4) ?? "");
}

describe("foldAffineOps", () => {
  it("folds PP-LCNet's scale-and-shift blocks, hard-swish and batch norms, and computes the same", async () => {
    // Every pattern the OCR models have, in the orders they have them (the constant first, too).
    const nodes: OnnxNode[] = [
      { op: "Conv", inputs: ["x", "w1", "b1"], outputs: ["c1"], attributes: { pads: [1, 1, 1, 1] } },
      { op: "Mul", inputs: ["s1", "c1"], outputs: ["m1"] },
      { op: "Add", inputs: ["m1", "t1"], outputs: ["a1"] },
      { op: "Add", inputs: ["a1", "three"], outputs: ["h1"] },
      { op: "Clip", inputs: ["h1", "zero", "six"], outputs: ["h2"] },
      { op: "Mul", inputs: ["a1", "h2"], outputs: ["h3"] },
      { op: "Div", inputs: ["h3", "six"], outputs: ["h4"] },
      { op: "Mul", inputs: ["s2", "h4"], outputs: ["m2"] },
      { op: "Add", inputs: ["m2", "t2"], outputs: ["a2"] },
      { op: "Conv", inputs: ["a2", "w2", "b2"], outputs: ["c2"] },
      { op: "Relu", inputs: ["c2"], outputs: ["r2"] },
      { op: "Mul", inputs: ["r2", "s3"], outputs: ["m3"] },
      { op: "Add", inputs: ["m3", "t3"], outputs: ["a3"] },
      { op: "Conv", inputs: ["a3", "w3"], outputs: ["c3"], attributes: { pads: [1, 1, 1, 1], group: 4 } },
      { op: "BatchNormalization", inputs: ["c3", "gamma", "beta", "mean", "variance"], outputs: ["n3"] },
      { op: "ConvTranspose", inputs: ["n3", "w4"], outputs: ["c4"], attributes: { strides: [2, 2] } },
      { op: "Add", inputs: ["c4", "t4"], outputs: ["y"] },
    ];
    const initializers = [
      tensor("w1", [4, 4, 3, 3], 1),
      tensor("b1", [4], 2),
      scalar("s1", 0.94),
      { ...tensor("t1", [1, 4, 1, 1], 3) },
      scalar("three", 3),
      scalar("zero", 0),
      scalar("six", 6),
      scalar("s2", 0.48),
      scalar("t2", -0.3),
      tensor("w2", [4, 4, 1, 1], 4),
      tensor("b2", [4], 5),
      scalar("s3", 1.9),
      scalar("t3", 0.8),
      tensor("w3", [4, 1, 3, 3], 6),
      tensor("gamma", [4], 7),
      tensor("beta", [4], 8),
      tensor("mean", [4], 9),
      { name: "variance", dims: [4], data: values(4, 10).map((v) => v + 1.5) },
      tensor("w4", [4, 2, 2, 2], 11),
      tensor("t4", [1, 2, 1, 1], 12),
    ];
    const model = encodeOnnxModel(
      {
        nodes,
        initializers,
        inputs: [{ name: "x", dims: [1, 4, 6, 6] }],
        outputs: [{ name: "y", dims: [1, 2, 12, 12] }],
      },
      "fold-test",
    );

    const { model: folded, folds } = foldAffineOps(model);

    expect(folds).toEqual({
      "Conv+Mul": 1,
      "Conv+Add": 1,
      "hard-swish": 1,
      "scale+shift→Conv": 1,
      "scale+shift→padded Conv": 1,
      "Conv+BatchNormalization": 1,
      "ConvTranspose+Add": 1,
    });
    expect(opsOf(folded).sort()).toEqual([
      "Add",
      "Conv",
      "Conv",
      "Conv",
      "ConvTranspose",
      "HardSigmoid",
      "Mul",
      "Relu",
    ]);
    const input = new Tensor(
      "float32",
      values(4 * 6 * 6, 13).map((v) => v * 4),
      [1, 4, 6, 6],
    );
    const [before, after] = [await run(model, input), await run(folded, input)];
    expect(Math.max(...before.map(Math.abs))).toBeGreaterThan(0.1);
    expect(largestDifference(before, after)).toBeLessThan(1e-5);
  });

  it("leaves a value alone where another node or the graph's output also reads it", () => {
    const nodes: OnnxNode[] = [
      { op: "Conv", inputs: ["x", "w"], outputs: ["c"] },
      { op: "Mul", inputs: ["c", "s"], outputs: ["y"] },
      { op: "Relu", inputs: ["c"], outputs: ["z"] },
    ];
    const model = encodeOnnxModel(
      {
        nodes,
        initializers: [tensor("w", [2, 2, 1, 1], 1), scalar("s", 2)],
        inputs: [{ name: "x", dims: [1, 2, 3, 3] }],
        outputs: [
          { name: "y", dims: [1, 2, 3, 3] },
          { name: "z", dims: [1, 2, 3, 3] },
        ],
      },
      "fold-test",
    );
    const { model: folded, folds } = foldAffineOps(model);
    expect(folds).toEqual({});
    expect(opsOf(folded)).toEqual(["Conv", "Mul", "Relu"]);
    const graph = decodeMessage(decodeMessage(folded).find((f) => f.field === 7)?.value as Uint8Array);
    const outputs = graph.filter((f) => f.field === 12).map((f) => stringOf(decodeMessage(f.value as Uint8Array), 1));
    expect(outputs).toEqual(["y", "z"]);
    const firstNode = decodeMessage(graph.find((f) => f.field === 1)?.value as Uint8Array);
    expect(stringsOf(firstNode, 1)).toEqual(["x", "w"]);
  });

  it("gives the shipped PaddleOCR models the same outputs in fewer ops", async () => {
    for (const [file, dims] of [
      [OCR_MODEL_FILES.detection, [1, 3, 256, 320]],
      [OCR_MODEL_FILES.recognition, [1, 3, 48, 320]],
    ] as [string, number[]][]) {
      const original = readFileSync(file);
      const { model: folded } = foldAffineOps(original);
      expect(opsOf(folded).length).toBeLessThan(opsOf(original).length * 0.7);
      expect(opsOf(folded)).not.toContain("Clip");
      const input = new Tensor(
        "float32",
        values(
          dims.reduce((a, b) => a * b, 1),
          5,
        ),
        [...dims],
      );
      expect(largestDifference(await run(original, input), await run(folded, input))).toBeLessThan(1e-4);
    }
  });
});
