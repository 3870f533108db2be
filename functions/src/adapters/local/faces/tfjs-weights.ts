import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: "float32" | "int32";
  quantization?: { dtype: string; scale: number; min: number };
}

export interface Weight {
  shape: number[];
  values: Float32Array;
}

/** Reads a tfjs weights manifest and its shards, undoing face-api's uint8 quantisation. */
export async function readTfjsWeights(manifestPath: string): Promise<Map<string, Weight>> {
  const manifest: { paths: string[]; weights: WeightSpec[] }[] = JSON.parse(await readFile(manifestPath, "utf8"));
  const weights = new Map<string, Weight>();
  for (const group of manifest) {
    const shards = await Promise.all(group.paths.map((path) => readFile(join(dirname(manifestPath), path))));
    const bytes = Buffer.concat(shards);
    let offset = 0;
    for (const spec of group.weights) {
      const count = spec.shape.reduce((a, b) => a * b, 1);
      const q = spec.quantization;
      const values = new Float32Array(count);
      if (q?.dtype === "uint8") {
        for (let i = 0; i < count; i++) values[i] = (bytes[offset + i] as number) * q.scale + q.min;
        offset += count;
      } else if (!q && spec.dtype === "float32") {
        for (let i = 0; i < count; i++) values[i] = bytes.readFloatLE(offset + i * 4);
        offset += count * 4;
      } else {
        throw new Error(`unsupported weight encoding for ${spec.name}: ${q?.dtype ?? spec.dtype}`);
      }
      weights.set(spec.name, { shape: spec.shape, values });
    }
  }
  return weights;
}

/** tfjs convolution filters are [h, w, in, out]; ONNX wants [out, in, h, w]. */
export function toOihw({ shape, values }: Weight): { dims: number[]; data: Float32Array } {
  const [h = 0, w = 0, cin = 0, cout = 0] = shape;
  const data = new Float32Array(values.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let i = 0; i < cin; i++)
        for (let o = 0; o < cout; o++)
          data[((o * cin + i) * h + y) * w + x] = values[((y * w + x) * cin + i) * cout + o] as number;
  return { dims: [cout, cin, h, w], data };
}
