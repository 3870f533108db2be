import { encodeOnnxModel, type OnnxInitializer, type OnnxNode } from "./onnx-model";
import { readTfjsWeights, toOihw, type Weight } from "./tfjs-weights";

/**
 * face-api's face recognition net: Davis King's dlib ResNet (29 conv layers, 128-d descriptor,
 * 99.38% on LFW), ported to tfjs weights by face-api.js and shipped in @vladmandic/face-api's
 * model/ folder. Rebuilt as an ONNX graph, as ssd-mobilenet.ts does with the detector, so it runs
 * on onnxruntime in the face worker. The layers mirror face-api's `faceRecognitionNet/*.ts`.
 */

/** The net reads a 150 × 150 RGB face chip, as dlib's `extract_image_chip` cuts it. */
export const RECOGNITION_INPUT_SIZE = 150;
export const RECOGNITION_INPUT = "face";
export const RECOGNITION_OUTPUT = "descriptor";
/** Per-channel means the net was trained with, subtracted before dividing by 255. */
export const RECOGNITION_MEAN_RGB = [122.782, 117.001, 104.298] as const;
export const DESCRIPTOR_LENGTH = 128;

type Padding = "same" | "valid";

class ResNetBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxInitializer[] = [];
  private count = 0;

  constructor(private readonly weights: Map<string, Weight>) {}

  private weight(name: string): Weight {
    const weight = this.weights.get(name);
    if (!weight) throw new Error(`face recognition weights lack ${name}`);
    return weight;
  }

  private name(base: string): string {
    return `${base}#${this.count++}`;
  }

  private constant(name: string, dims: number[], data: Float32Array | BigInt64Array): string {
    this.initializers.push({ name, dims, data });
    return name;
  }

  op(op: string, inputs: string[], attributes?: OnnxNode["attributes"]): string {
    const out = this.name(op);
    this.nodes.push({ op, inputs, outputs: [out], ...(attributes ? { attributes } : {}) });
    return out;
  }

  /** conv + bias, then face-api's scale layer (x · w + b), folded into the filters and bias. */
  conv(input: string, prefix: string, stride: number, padding: Padding, relu: boolean): string {
    const filters = toOihw(this.weight(`${prefix}/conv/filters`));
    const bias = this.weight(`${prefix}/conv/bias`).values;
    const scale = this.weight(`${prefix}/scale/weights`).values;
    const shift = this.weight(`${prefix}/scale/biases`).values;
    const [cout = 0, cin = 0, kh = 0, kw = 0] = filters.dims;
    const perFilter = cin * kh * kw;
    const folded = new Float32Array(filters.data.length);
    const foldedBias = new Float32Array(cout);
    for (let o = 0; o < cout; o++) {
      const s = scale[o] as number;
      foldedBias[o] = (bias[o] as number) * s + (shift[o] as number);
      for (let k = 0; k < perFilter; k++) folded[o * perFilter + k] = (filters.data[o * perFilter + k] as number) * s;
    }
    const w = this.constant(`${prefix}/W`, filters.dims, folded);
    const b = this.constant(`${prefix}/B`, [cout], foldedBias);
    const out = this.op("Conv", [input, w, b], {
      kernel_shape: [kh, kw],
      strides: [stride, stride],
      // tf's "same" at stride 1 pads evenly; "valid" drops the pixels a stride does not reach.
      ...(padding === "same" ? { auto_pad: "SAME_UPPER" } : {}),
    });
    return relu ? this.op("Relu", [out]) : out;
  }

  residual(input: string, prefix: string): string {
    const a = this.conv(input, `${prefix}/conv1`, 1, "same", true);
    const b = this.conv(a, `${prefix}/conv2`, 1, "same", false);
    return this.op("Relu", [this.op("Add", [b, input])]);
  }

  /**
   * Halves the resolution and widens the channels. The shortcut is a 2 × 2 average pool padded
   * with zero channels; where the strided conv comes out one pixel short of the pool, face-api
   * pads it with a zero row and column at the end.
   */
  residualDown(input: string, prefix: string, inChannels: number, inSize: number): { out: string; size: number } {
    const a = this.conv(input, `${prefix}/conv1`, 2, "valid", true);
    const b = this.conv(a, `${prefix}/conv2`, 1, "same", false);
    const outChannels = this.weight(`${prefix}/conv2/conv/filters`).shape[3] ?? 0;
    const convSize = Math.floor((inSize - 3) / 2) + 1;
    const poolSize = Math.floor(inSize / 2);
    const grow = poolSize - convSize;
    const main =
      grow > 0
        ? this.op("Pad", [b, this.constant(`${prefix}/pad_hw`, [8], BigInt64Array.of(0n, 0n, 0n, 0n, 0n, 0n, 1n, 1n))])
        : b;
    let shortcut = this.op("AveragePool", [input], { kernel_shape: [2, 2], strides: [2, 2] });
    const extra = BigInt(outChannels - inChannels);
    if (extra > 0n)
      shortcut = this.op("Pad", [
        shortcut,
        this.constant(`${prefix}/pad_c`, [8], BigInt64Array.of(0n, 0n, 0n, 0n, 0n, extra, 0n, 0n)),
      ]);
    return { out: this.op("Relu", [this.op("Add", [shortcut, main])]), size: poolSize };
  }

  fullyConnected(input: string): string {
    const fc = this.weight("fc");
    const flat = this.op("Flatten", [input], { axis: 1 });
    this.nodes.push({
      op: "MatMul",
      inputs: [flat, this.constant("fc/W", fc.shape, fc.values)],
      outputs: [RECOGNITION_OUTPUT],
    });
    return RECOGNITION_OUTPUT;
  }
}

/** The ONNX model: [1, 3, 150, 150] normalised RGB in, [1, 128] descriptor (not yet L2-normalised) out. */
export async function loadFaceRecognition(manifestPath: string): Promise<Uint8Array> {
  const g = new ResNetBuilder(await readTfjsWeights(manifestPath));
  // 150 → 72 (7 × 7, stride 2) → 35 (max pool 3, stride 2).
  let x = g.conv(RECOGNITION_INPUT, "conv32_down", 2, "valid", true);
  x = g.op("MaxPool", [x], { kernel_shape: [3, 3], strides: [2, 2] });
  let size = 35;
  let channels = 32;
  const stages: [string, number, number][] = [
    ["conv32", 0, 3],
    ["conv64", 64, 3],
    ["conv128", 128, 2],
    ["conv256", 256, 2],
  ];
  for (const [stage, width, blocks] of stages) {
    if (width > 0) {
      ({ out: x, size } = g.residualDown(x, `${stage}_down`, channels, size));
      channels = width;
    }
    for (let i = 1; i <= blocks; i++) x = g.residual(x, `${stage}_${i}`);
  }
  ({ out: x } = g.residualDown(x, "conv256_down_out", channels, size));
  x = g.op("GlobalAveragePool", [x]);
  g.fullyConnected(x);
  return encodeOnnxModel(
    {
      nodes: g.nodes,
      initializers: g.initializers,
      inputs: [{ name: RECOGNITION_INPUT, dims: [1, 3, RECOGNITION_INPUT_SIZE, RECOGNITION_INPUT_SIZE] }],
      outputs: [{ name: RECOGNITION_OUTPUT, dims: [1, DESCRIPTOR_LENGTH] }],
    },
    "dorsal-face-recognition",
  );
}
