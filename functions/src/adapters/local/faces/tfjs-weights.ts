import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: "float32" | "int32";
  quantization?: { dtype: "uint8"; scale: number; min: number } | { dtype: "float16" };
}

export interface Weight {
  shape: number[];
  values: Float32Array;
}

export interface WeightGroup {
  paths: string[];
  weights: WeightSpec[];
}

/** Reads a tfjs weights manifest and its shards (face-api's models ship them beside each other). */
export async function readTfjsWeights(manifestPath: string): Promise<Map<string, Weight>> {
  return readWeightGroups(JSON.parse(await readFile(manifestPath, "utf8")), dirname(manifestPath));
}

/**
 * Reads the shards of a manifest's weight groups from `dir`, undoing the quantisation they were
 * shipped with (face-api's uint8, Human's float16).
 */
export async function readWeightGroups(manifest: WeightGroup[], dir: string): Promise<Map<string, Weight>> {
  const weights = new Map<string, Weight>();
  for (const group of manifest) {
    const shards = await Promise.all(group.paths.map((path) => readFile(join(dir, path))));
    const bytes = Buffer.concat(shards);
    let offset = 0;
    for (const spec of group.weights) {
      const count = spec.shape.reduce((a, b) => a * b, 1);
      const q = spec.quantization;
      const values = new Float32Array(count);
      if (q?.dtype === "uint8") {
        for (let i = 0; i < count; i++) values[i] = (bytes[offset + i] as number) * q.scale + q.min;
        offset += count;
      } else if (q?.dtype === "float16") {
        for (let i = 0; i < count; i++) values[i] = halfToFloat(bytes.readUInt16LE(offset + i * 2));
        offset += count * 2;
      } else if (!q && (spec.dtype === "float32" || spec.dtype === "int32")) {
        const read = spec.dtype === "float32" ? bytes.readFloatLE.bind(bytes) : bytes.readInt32LE.bind(bytes);
        // int32 weights are small index lists (a reduction's axes): exact as float32.
        for (let i = 0; i < count; i++) values[i] = read(offset + i * 4);
        offset += count * 4;
      } else {
        throw new Error(
          `unsupported weight encoding for ${spec.name}: ${JSON.stringify(spec.quantization ?? spec.dtype)}`,
        );
      }
      weights.set(spec.name, { shape: spec.shape, values });
    }
  }
  return weights;
}

/**
 * tfjs convolution filters are [h, w, in, out]; ONNX wants [out, in, h, w]. A depthwise filter,
 * [h, w, in, multiplier] in tfjs, becomes the grouped convolution's [in · multiplier, 1, h, w].
 */
export function toOihw(
  { shape, values }: Weight,
  kind: "dense" | "depthwise" = "dense",
): { dims: number[]; data: Float32Array } {
  const [h = 0, w = 0, cin = 0, cout = 0] = shape;
  const data = new Float32Array(values.length);
  // Dense: output o reads all inputs; depthwise: output i · multiplier + o reads input i alone.
  const target = kind === "dense" ? (i: number, o: number) => o * cin + i : (i: number, o: number) => i * cout + o;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let i = 0; i < cin; i++)
        for (let o = 0; o < cout; o++)
          data[(target(i, o) * h + y) * w + x] = values[((y * w + x) * cin + i) * cout + o] as number;
  return { dims: kind === "dense" ? [cout, cin, h, w] : [cin * cout, 1, h, w], data };
}

/** IEEE 754 half precision (1 sign, 5 exponent, 10 fraction bits) to a number. */
function halfToFloat(half: number): number {
  const sign = half & 0x8000 ? -1 : 1;
  const exponent = (half >> 10) & 0x1f;
  const fraction = half & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}
