import {
  decodeMessage,
  float32Of,
  integersOf,
  type ProtoField,
  stringOf,
  stringsOf,
  WIRE_BYTES,
  WIRE_VARINT,
  Writer,
} from "./protobuf";

/**
 * PaddleOCR's exported graphs (PP-OCRv4, via paddle2onnx) spell out, one elementwise op at a time, what
 * a CPU does in the convolutions' own pass: every convolution is followed by a scalar scale and shift
 * (PP-LCNetV3's "learnable affine blocks", kept apart at export), and every hard-swish is four ops
 * (x · clip(x + 3, 0, 6) / 6). At 1280 px each of those ops reads and writes tens of megabytes, and
 * onnxruntime's own optimiser fuses none of them (not even with each Mul's constant put second, the
 * order its Conv+Mul fusion looks for: the same time a run). So the graph is rewritten before the
 * session is made, with the same arithmetic:
 * - Conv or ConvTranspose → Mul / Add by a per-channel constant, or → BatchNormalization: folded
 *   into the convolution's weights and bias;
 * - x · clip(x + 3, 0, 6) / 6 → x · HardSigmoid(x; α = 1/6, β = ½), the same function;
 * - a scalar scale (and shift) in front of a convolution: the scale into its weights (zero padding
 *   scales to zero), the shift into its bias where it has no padding, else kept as one Add.
 * Outputs differ from the original graph only by float rounding (fold-affine.test.ts).
 */
export function foldAffineOps(model: Uint8Array): { model: Uint8Array; folds: Record<string, number> } {
  const modelFields = decodeMessage(model);
  const graphAt = modelFields.findIndex((f) => f.field === MODEL_GRAPH && f.wire === WIRE_BYTES);
  if (graphAt < 0) throw new Error("ONNX model without a graph");
  const graph = new EditableGraph(decodeMessage(modelFields[graphAt]?.value as Uint8Array));
  const folds: Record<string, number> = {};
  for (let changed = true; changed; ) {
    changed = false;
    for (const node of [...graph.nodes]) {
      if (!graph.nodes.includes(node)) continue;
      const fold = hardSwish(graph, node) ?? intoConvolution(graph, node) ?? inFrontOfConvolution(graph, node);
      if (fold) {
        folds[fold] = (folds[fold] ?? 0) + 1;
        changed = true;
      }
    }
  }
  const out = new Writer();
  modelFields.forEach((f, i) => {
    if (i === graphAt) out.bytes(MODEL_GRAPH, graph.encode());
    else out.copy(f);
  });
  return { model: out.finish(), folds };
}

// Field numbers from onnx.proto.
const MODEL_GRAPH = 7;
const GRAPH = { node: 1, initializer: 5, input: 11, output: 12 } as const;
const NODE = { input: 1, output: 2, opType: 4, attribute: 5 } as const;
const ATTRIBUTE = { name: 1, f: 2, i: 3, s: 4, t: 5, ints: 8, type: 20 } as const;
const ATTRIBUTE_FLOAT = 1;
const TENSOR = { dims: 1, dataType: 2, name: 8, rawData: 9 } as const;
const TENSOR_FLOAT = 1n;

interface FloatTensor {
  dims: number[];
  data: Float32Array;
}

interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes: ProtoField[][];
  /** Name, domain, doc string: written back as they were. */
  rest: ProtoField[];
}

class EditableGraph {
  nodes: Node[];
  private readonly initializers: { name: string; field: ProtoField }[] = [];
  private readonly added = new Map<string, FloatTensor>();
  private readonly constants = new Map<string, FloatTensor>();
  private readonly other: ProtoField[] = [];
  private readonly kept = new Set<string>();

  constructor(fields: ProtoField[]) {
    this.nodes = [];
    for (const f of fields) {
      if (f.field === GRAPH.node && f.wire === WIRE_BYTES) this.nodes.push(decodeNode(f.value));
      else if (f.field === GRAPH.initializer && f.wire === WIRE_BYTES) {
        const tensor = decodeMessage(f.value);
        const name = stringOf(tensor, TENSOR.name) ?? "";
        this.initializers.push({ name, field: f });
        const value = floatTensor(tensor);
        if (value) this.constants.set(name, value);
      } else {
        this.other.push(f);
        if ((f.field === GRAPH.output || f.field === GRAPH.input) && f.wire === WIRE_BYTES) {
          this.kept.add(stringOf(decodeMessage(f.value), 1) ?? "");
        }
      }
    }
    for (const node of this.nodes) {
      if (node.op !== "Constant") continue;
      const value = node.attributes.find((a) => stringOf(a, ATTRIBUTE.name) === "value");
      const tensor = value?.find((f) => f.field === ATTRIBUTE.t && f.wire === WIRE_BYTES);
      const decoded = tensor && floatTensor(decodeMessage(tensor.value as Uint8Array));
      if (decoded && node.outputs[0]) this.constants.set(node.outputs[0], decoded);
    }
  }

  constant(name: string | undefined): FloatTensor | undefined {
    return name === undefined ? undefined : this.constants.get(name);
  }

  /** A new constant, under a name no other value has. */
  addConstant(base: string, tensor: FloatTensor): string {
    let name = `${base}.folded`;
    for (let n = 1; this.constants.has(name); n += 1) name = `${base}.folded${n}`;
    this.constants.set(name, tensor);
    this.added.set(name, tensor);
    return name;
  }

  producer(value: string): Node | undefined {
    return this.nodes.find((node) => node.outputs.includes(value));
  }

  /** The one node that reads `value`, when exactly one does and the graph does not output it. */
  soleReader(value: string): Node | undefined {
    if (this.kept.has(value)) return undefined;
    const readers = this.nodes.filter((node) => node.inputs.includes(value));
    return readers.length === 1 ? readers[0] : undefined;
  }

  remove(...nodes: Node[]): void {
    this.nodes = this.nodes.filter((node) => !nodes.includes(node));
  }

  encode(): Uint8Array {
    const read = new Set([...this.nodes.flatMap((node) => node.inputs), ...this.kept]);
    const w = new Writer();
    for (const node of this.nodes) {
      if (node.op === "Constant" && !node.outputs.some((output) => read.has(output))) continue;
      w.bytes(GRAPH.node, encodeNode(node));
    }
    for (const { name, field } of this.initializers) if (read.has(name)) w.copy(field);
    for (const [name, tensor] of this.added) {
      if (!read.has(name)) continue;
      w.message(GRAPH.initializer, (t) => {
        for (const dim of tensor.dims) t.int(TENSOR.dims, dim);
        t.int(TENSOR.dataType, TENSOR_FLOAT).string(TENSOR.name, name);
        // raw_data is little-endian, as are the typed arrays on every platform Node ships for.
        t.bytes(TENSOR.rawData, new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
      });
    }
    for (const f of this.other) w.copy(f);
    return w.finish();
  }
}

function decodeNode(bytes: Uint8Array): Node {
  const fields = decodeMessage(bytes);
  return {
    op: stringOf(fields, NODE.opType) ?? "",
    inputs: stringsOf(fields, NODE.input),
    outputs: stringsOf(fields, NODE.output),
    attributes: fields
      .filter((f) => f.field === NODE.attribute && f.wire === WIRE_BYTES)
      .map((f) => decodeMessage(f.value as Uint8Array)),
    rest: fields.filter((f) => !Object.values(NODE).includes(f.field as never)),
  };
}

function encodeNode(node: Node): Uint8Array {
  const w = new Writer();
  for (const input of node.inputs) w.string(NODE.input, input);
  for (const output of node.outputs) w.string(NODE.output, output);
  w.string(NODE.opType, node.op);
  for (const attribute of node.attributes) {
    w.message(NODE.attribute, (a) => {
      for (const f of attribute) a.copy(f);
    });
  }
  for (const f of node.rest) w.copy(f);
  return w.finish();
}

/** A float tensor stored as raw data (how exporters write weights), else undefined. */
function floatTensor(fields: ProtoField[]): FloatTensor | undefined {
  const type = fields.find((f) => f.field === TENSOR.dataType && f.wire === WIRE_VARINT)?.value;
  const raw = fields.find((f) => f.field === TENSOR.rawData && f.wire === WIRE_BYTES)?.value as Uint8Array | undefined;
  if (type !== TENSOR_FLOAT || !raw || raw.length % 4 !== 0) return undefined;
  // A copy: the view may not be aligned for a Float32Array.
  return { dims: integersOf(fields, TENSOR.dims).map(Number), data: new Float32Array(Uint8Array.from(raw).buffer) };
}

function attribute(node: Node, name: string): ProtoField[] | undefined {
  return node.attributes.find((a) => stringOf(a, ATTRIBUTE.name) === name);
}

function floatAttribute(name: string, value: number): ProtoField[] {
  return decodeMessage(
    new Writer().string(ATTRIBUTE.name, name).float32(ATTRIBUTE.f, value).int(ATTRIBUTE.type, ATTRIBUTE_FLOAT).finish(),
  );
}

/** A constant's single value, if it has exactly one. */
function scalar(tensor: FloatTensor | undefined): number | undefined {
  return tensor?.data.length === 1 ? tensor.data[0] : undefined;
}

/** The input of a two-input node that is not `value`. */
function otherInput(node: Node, value: string): string | undefined {
  if (node.inputs.length !== 2) return undefined;
  return node.inputs[0] === value ? node.inputs[1] : node.inputs[0];
}

/** x · clip(x + 3, 0, 6) / 6 → x · HardSigmoid(x; 1/6, ½), found from its last op, the Div. */
function hardSwish(graph: EditableGraph, div: Node): string | undefined {
  if (div.op !== "Div" || scalar(graph.constant(div.inputs[1])) !== 6) return undefined;
  const mul = graph.producer(div.inputs[0] ?? "");
  if (mul?.op !== "Mul" || mul.inputs.length !== 2 || graph.soleReader(mul.outputs[0] ?? "") !== div) return undefined;
  for (const [x, gate] of [mul.inputs, [...mul.inputs].reverse()] as [string, string][]) {
    const clip = graph.producer(gate);
    if (clip?.op !== "Clip" || graph.soleReader(gate) !== mul) continue;
    // Opset 11 on gives the bounds as inputs; before, as attributes.
    const low =
      clip.inputs.length > 1
        ? scalar(graph.constant(clip.inputs[1]))
        : float32Of(attribute(clip, "min") ?? [], ATTRIBUTE.f);
    const high =
      clip.inputs.length > 2
        ? scalar(graph.constant(clip.inputs[2]))
        : float32Of(attribute(clip, "max") ?? [], ATTRIBUTE.f);
    if (low !== 0 || high !== 6) continue;
    const add = graph.producer(clip.inputs[0] ?? "");
    if (add?.op !== "Add" || !add.inputs.includes(x) || graph.soleReader(add.outputs[0] ?? "") !== clip) continue;
    if (scalar(graph.constant(otherInput(add, x))) !== 3) continue;
    add.op = "HardSigmoid";
    add.inputs = [x];
    add.outputs = clip.outputs;
    add.attributes = [floatAttribute("alpha", 1 / 6), floatAttribute("beta", 0.5)];
    mul.outputs = div.outputs;
    graph.remove(clip, div);
    return "hard-swish";
  }
  return undefined;
}

/** One value per output channel from a constant that broadcasts along channels only, else undefined. */
function perChannel(tensor: FloatTensor | undefined, channels: number, rank: number): Float32Array | undefined {
  if (!tensor || tensor.dims.length > rank) return undefined;
  if (tensor.data.length === 1) return new Float32Array(channels).fill(tensor.data[0] as number);
  // Broadcasting aligns trailing axes: [C, 1, 1] or [1, C, 1, 1] lie along a 4-D tensor's channels.
  const channelAxis = tensor.dims.length - (rank - 1);
  const alongChannels = tensor.dims.every((dim, axis) => (axis === channelAxis ? dim === channels : dim === 1));
  return channelAxis >= 0 && alongChannels ? tensor.data : undefined;
}

/** A convolution's weights, output channels and bias (zeros when it has none), or undefined. */
function convolutionParts(graph: EditableGraph, conv: Node) {
  const weights = graph.constant(conv.inputs[1]);
  if ((conv.op !== "Conv" && conv.op !== "ConvTranspose") || !weights) return undefined;
  const group = Number(integersOf(attribute(conv, "group") ?? [], ATTRIBUTE.i)[0] ?? 1n);
  // Conv weights are [out, in / group, …]; ConvTranspose's [in, out / group, …].
  const outputs = conv.op === "Conv" ? (weights.dims[0] ?? 0) : (weights.dims[1] ?? 0) * group;
  const bias = conv.inputs[2] ? graph.constant(conv.inputs[2])?.data : new Float32Array(outputs);
  if (!bias || bias.length !== outputs) return undefined;
  return { weights, outputs, bias, group };
}

/** Conv or ConvTranspose → Mul / Add by a per-channel constant, or → BatchNormalization: folded in. */
function intoConvolution(graph: EditableGraph, conv: Node): string | undefined {
  const parts = convolutionParts(graph, conv);
  const next = graph.soleReader(conv.outputs[0] ?? "");
  if (!parts || !next) return undefined;
  const { weights, outputs, bias, group } = parts;
  const rank = weights.dims.length;
  let scale: Float32Array | undefined;
  let shift: Float32Array | undefined;
  if (next.op === "Mul" || next.op === "Add") {
    const operand = perChannel(graph.constant(otherInput(next, conv.outputs[0] ?? "")), outputs, rank);
    if (!operand) return undefined;
    scale = next.op === "Mul" ? operand : new Float32Array(outputs).fill(1);
    shift = next.op === "Add" ? operand : new Float32Array(outputs);
  } else if (next.op === "BatchNormalization" && next.outputs.length === 1) {
    const [gamma, beta, mean, variance] = next.inputs.slice(1).map((name) => graph.constant(name)?.data);
    if (!gamma || !beta || !mean || !variance || gamma.length !== outputs) return undefined;
    const epsilon = float32Of(attribute(next, "epsilon") ?? [], ATTRIBUTE.f) ?? 1e-5;
    scale = new Float32Array(outputs);
    shift = new Float32Array(outputs);
    for (let o = 0; o < outputs; o += 1) {
      scale[o] = (gamma[o] as number) / Math.sqrt((variance[o] as number) + epsilon);
      shift[o] = (beta[o] as number) - (mean[o] as number) * (scale[o] as number);
    }
  } else return undefined;

  const b = new Float32Array(outputs);
  for (let o = 0; o < outputs; o += 1) b[o] = (bias[o] as number) * (scale[o] as number) + (shift[o] as number);
  const name = conv.outputs[0] ?? "conv";
  conv.inputs = [
    conv.inputs[0] ?? "",
    // A shift leaves the weights as they are.
    next.op === "Add"
      ? (conv.inputs[1] ?? "")
      : graph.addConstant(`${name}.W`, {
          dims: weights.dims,
          data: scaledFilters(conv.op === "ConvTranspose", weights, group, scale),
        }),
    graph.addConstant(`${name}.B`, { dims: [outputs], data: b }),
  ];
  conv.outputs = next.outputs;
  graph.remove(next);
  return `${conv.op}+${next.op}`;
}

/** The weights with each output channel's filters multiplied by that channel's scale. */
function scaledFilters(transposed: boolean, weights: FloatTensor, group: number, scale: Float32Array): Float32Array {
  const [first = 1, second = 1] = weights.dims;
  const kernel = weights.data.length / (first * second);
  const w = new Float32Array(weights.data);
  for (let a = 0; a < first; a += 1) {
    for (let b = 0; b < second; b += 1) {
      // Conv weights are [out, in / group, …]; ConvTranspose's [in, out / group, …].
      const s = scale[transposed ? Math.floor(a / (first / group)) * second + b : a] as number;
      for (let k = (a * second + b) * kernel, end = k + kernel; k < end; k += 1) w[k] = (w[k] as number) * s;
    }
  }
  return w;
}

/** Mul(x, s) [→ Add(·, b)] → Conv, s and b scalars: the scale into the weights, the shift where exact. */
function inFrontOfConvolution(graph: EditableGraph, mul: Node): string | undefined {
  if (mul.op !== "Mul" || mul.inputs.length !== 2) return undefined;
  const scaleAt = mul.inputs.findIndex((input) => scalar(graph.constant(input)) !== undefined);
  const s = scalar(graph.constant(mul.inputs[scaleAt]));
  const x = mul.inputs[1 - scaleAt];
  if (s === undefined || s === 0 || x === undefined || graph.constant(x)) return undefined;
  let next = graph.soleReader(mul.outputs[0] ?? "");
  let add: Node | undefined;
  let shift = 0;
  if (next?.op === "Add") {
    const b = scalar(graph.constant(otherInput(next, mul.outputs[0] ?? "")));
    if (b === undefined) return undefined;
    add = next;
    shift = b;
    next = graph.soleReader(add.outputs[0] ?? "");
  }
  const conv = next;
  const parts = conv?.op === "Conv" ? convolutionParts(graph, conv) : undefined;
  if (!conv || !parts || conv.inputs[0] !== (add ?? mul).outputs[0]) return undefined;
  const autoPad = stringOf(attribute(conv, "auto_pad") ?? [], ATTRIBUTE.s) ?? "NOTSET";
  const pads = integersOf(attribute(conv, "pads") ?? [], ATTRIBUTE.ints);
  const unpadded = (autoPad === "NOTSET" || autoPad === "VALID") && pads.every((pad) => pad === 0n);
  const { weights, outputs, bias } = parts;
  const w = new Float32Array(weights.data);
  const perFilter = w.length / outputs;
  const b = new Float32Array(bias);
  for (let o = 0; o < outputs; o += 1) {
    let sum = 0;
    for (let k = o * perFilter; k < (o + 1) * perFilter; k += 1) {
      sum += weights.data[k] as number;
      w[k] = (weights.data[k] as number) * s;
    }
    // conv(W, s·x + b) = conv(s·W, x) + b·ΣW, where the padding adds no b: only without padding.
    if (add && unpadded) b[o] = (b[o] as number) + shift * sum;
  }
  const name = conv.outputs[0] ?? "conv";
  const weightsName = graph.addConstant(`${name}.W`, { dims: weights.dims, data: w });
  const biasName = graph.addConstant(`${name}.B`, { dims: [outputs], data: b });
  if (add && !unpadded) {
    // s·x + b = s·(x + b/s): the Add stays, in front, and the scale goes into the weights.
    add.inputs = [x, graph.addConstant(`${name}.shift`, { dims: [], data: Float32Array.of(shift / s) })];
    conv.inputs = [add.outputs[0] ?? "", weightsName, biasName];
    graph.remove(mul);
    return "scale+shift→padded Conv";
  }
  conv.inputs = [x, weightsName, biasName];
  graph.remove(mul, ...(add ? [add] : []));
  return add ? "scale+shift→Conv" : "scale→Conv";
}
