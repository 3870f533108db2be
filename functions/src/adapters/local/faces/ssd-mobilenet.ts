import { encodeOnnxModel, type OnnxGraph, type OnnxInitializer, type OnnxNode } from "./onnx-model";
import { readTfjsWeights, toOihw, type Weight } from "./tfjs-weights";

/**
 * face-api's SSD MobileNetV1 face detector (yeephycho's TF Object Detection API model trained on
 * WIDER FACE, Apache-2.0), rebuilt as an ONNX graph from the tfjs weight files the npm package
 * ships, so it runs on onnxruntime like the OCR models instead of on a tfjs backend: about five
 * times faster on one core than tfjs's wasm backend, and no second ML runtime in the process.
 * The layers mirror face-api's `ssdMobilenetv1/*.ts`; boxes are decoded in JS.
 */

/** The anchors in the weights are laid out for this square input. */
export const SSD_INPUT_SIZE = 512;
export const SSD_INPUT = "image";
export const SSD_BOXES = "box_encodings";
export const SSD_CLASSES = "class_logits";

const BATCH_NORM_EPSILON = 0.0010000000474974513;
/** Depthwise layers of MobileNetV1 that halve the resolution. */
const STRIDE_2_LAYERS = new Set([2, 4, 6, 12]);
/** Feature map each box predictor reads, in the order its anchors appear in `Output/extra_dim`. */
const PREDICTOR_SOURCES = ["mobilenet_11", "mobilenet_13", "extra_1", "extra_3", "extra_5", "extra_7"];

export interface SsdModel {
  onnx: Uint8Array;
  /** (ymin, xmin, ymax, xmax) per anchor, 0..1 of the square input. */
  anchors: Float32Array;
}

class GraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxInitializer[] = [];

  constructor(private readonly weights: Map<string, Weight>) {}

  weight(name: string): Weight {
    const weight = this.weights.get(name);
    if (!weight) throw new Error(`face model weights lack ${name}`);
    return weight;
  }

  constant(name: string, dims: number[], data: Float32Array | BigInt64Array): string {
    this.initializers.push({ name, dims, data });
    return name;
  }

  /** TF "same" padding puts the odd pixel at the end, as ONNX's SAME_UPPER does. */
  conv(
    name: string,
    input: string,
    filters: { dims: number[]; data: Float32Array },
    bias: Float32Array,
    stride = 1,
    group = 1,
  ): string {
    const [cout = 0, , kh = 0, kw = 0] = filters.dims;
    const w = this.constant(`${name}/W`, filters.dims, filters.data);
    const b = this.constant(`${name}/B`, [cout], bias);
    this.nodes.push({
      op: "Conv",
      inputs: [input, w, b],
      outputs: [name],
      attributes: {
        auto_pad: "SAME_UPPER",
        kernel_shape: [kh, kw],
        strides: [stride, stride],
        group,
      },
    });
    return name;
  }

  relu6(input: string): string {
    const out = `${input}/relu6`;
    this.nodes.push({ op: "Clip", inputs: [input, "zero", "six"], outputs: [out] });
    return out;
  }

  /** conv + folded batch-norm offset + relu6, face-api's `pointwiseConvLayer`. */
  pointwise(name: string, input: string, prefix: string, stride = 1): string {
    const filters = toOihw(this.weight(`${prefix}/weights`));
    return this.relu6(this.conv(name, input, filters, this.weight(`${prefix}/convolution_bn_offset`).values, stride));
  }

  /** Depthwise conv + batch norm (folded into the filters) + relu6. */
  depthwise(name: string, input: string, prefix: string, stride: number): string {
    const { shape, values } = this.weight(`${prefix}/depthwise_weights`);
    const [kh = 0, kw = 0, channels = 0] = shape;
    const gamma = this.weight(`${prefix}/BatchNorm/gamma`).values;
    const beta = this.weight(`${prefix}/BatchNorm/beta`).values;
    const mean = this.weight(`${prefix}/BatchNorm/moving_mean`).values;
    const variance = this.weight(`${prefix}/BatchNorm/moving_variance`).values;
    const data = new Float32Array(values.length);
    const bias = new Float32Array(channels);
    for (let c = 0; c < channels; c++) {
      const scale = (gamma[c] as number) / Math.sqrt((variance[c] as number) + BATCH_NORM_EPSILON);
      bias[c] = (beta[c] as number) - (mean[c] as number) * scale;
      for (let k = 0; k < kh * kw; k++) data[c * kh * kw + k] = (values[k * channels + c] as number) * scale;
    }
    return this.relu6(this.conv(name, input, { dims: [channels, 1, kh, kw], data }, bias, stride, channels));
  }

  /** A 1×1 prediction conv, flattened to [1, cells × anchors, width] in tfjs (NHWC) order. */
  predictor(name: string, input: string, prefix: string, width: number): string {
    const conv = this.conv(
      name,
      input,
      toOihw(this.weight(`${prefix}/weights`)),
      this.weight(`${prefix}/biases`).values,
    );
    const nhwc = `${name}/nhwc`;
    const flat = `${name}/flat`;
    this.nodes.push({ op: "Transpose", inputs: [conv], outputs: [nhwc], attributes: { perm: [0, 2, 3, 1] } });
    this.nodes.push({ op: "Reshape", inputs: [nhwc, `shape_${width}`], outputs: [flat] });
    return flat;
  }
}

export async function loadSsdMobilenet(manifestPath: string): Promise<SsdModel> {
  const weights = await readTfjsWeights(manifestPath);
  const g = new GraphBuilder(weights);
  g.constant("zero", [], Float32Array.of(0));
  g.constant("six", [], Float32Array.of(6));
  g.constant("shape_4", [3], BigInt64Array.of(1n, -1n, 4n));
  g.constant("shape_3", [3], BigInt64Array.of(1n, -1n, 3n));

  const features: Record<string, string> = {};
  let x = g.pointwise("mobilenet_0", SSD_INPUT, "MobilenetV1/Conv2d_0_pointwise", 2);
  for (let i = 1; i <= 13; i++) {
    x = g.depthwise(`mobilenet_${i}_dw`, x, `MobilenetV1/Conv2d_${i}_depthwise`, STRIDE_2_LAYERS.has(i) ? 2 : 1);
    x = g.pointwise(`mobilenet_${i}`, x, `MobilenetV1/Conv2d_${i}_pointwise`);
    features[`mobilenet_${i}`] = x;
  }
  for (let i = 0; i <= 7; i++) {
    x = g.pointwise(`extra_${i}`, x, `Prediction/Conv2d_${i}_pointwise`, i % 2 === 1 ? 2 : 1);
    features[`extra_${i}`] = x;
  }

  const boxes: string[] = [];
  const classes: string[] = [];
  PREDICTOR_SOURCES.forEach((source, i) => {
    const input = features[source] as string;
    const prefix = `Prediction/BoxPredictor_${i}`;
    boxes.push(g.predictor(`box_${i}`, input, `${prefix}/BoxEncodingPredictor`, 4));
    classes.push(g.predictor(`class_${i}`, input, `${prefix}/ClassPredictor`, 3));
  });
  g.nodes.push({ op: "Concat", inputs: boxes, outputs: [SSD_BOXES], attributes: { axis: 1 } });
  g.nodes.push({ op: "Concat", inputs: classes, outputs: [SSD_CLASSES], attributes: { axis: 1 } });

  const anchors = g.weight("Output/extra_dim").values;
  const count = anchors.length / 4;
  const graph: OnnxGraph = {
    nodes: g.nodes,
    initializers: g.initializers,
    inputs: [{ name: SSD_INPUT, dims: [1, 3, SSD_INPUT_SIZE, SSD_INPUT_SIZE] }],
    outputs: [
      { name: SSD_BOXES, dims: [1, count, 4] },
      { name: SSD_CLASSES, dims: [1, count, 3] },
    ],
  };
  return { onnx: encodeOnnxModel(graph, "dorsal-face-ssd"), anchors };
}

export interface FaceCandidate {
  /** 0..1 */
  score: number;
  /** 0..1 of the square input. */
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * SSD box decoding as face-api does it (TF Object Detection API box coder, scales 10/10/5/5),
 * keeping the anchors whose face score reaches `minScore`. Overlaps are left for the caller.
 */
export function decodeFaces(
  encodings: Float32Array,
  logits: Float32Array,
  anchors: Float32Array,
  minScore: number,
): FaceCandidate[] {
  const candidates: FaceCandidate[] = [];
  const count = anchors.length / 4;
  for (let i = 0; i < count; i++) {
    // Class 0 is background; face-api reads class 1 through a sigmoid, not a softmax.
    const score = 1 / (1 + Math.exp(-(logits[i * 3 + 1] as number)));
    if (score < minScore) continue;
    const [ay0 = 0, ax0 = 0, ay1 = 0, ax1 = 0] = anchors.subarray(i * 4, i * 4 + 4);
    const [ty = 0, tx = 0, th = 0, tw = 0] = encodings.subarray(i * 4, i * 4 + 4);
    const ah = ay1 - ay0;
    const aw = ax1 - ax0;
    const cy = (ty / 10) * ah + ay0 + ah / 2;
    const cx = (tx / 10) * aw + ax0 + aw / 2;
    const h = Math.exp(th / 5) * ah;
    const w = Math.exp(tw / 5) * aw;
    candidates.push({ score, top: cy - h / 2, left: cx - w / 2, bottom: cy + h / 2, right: cx + w / 2 });
  }
  return candidates;
}
