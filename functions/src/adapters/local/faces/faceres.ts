import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { encodeOnnxModel, type OnnxInitializer, type OnnxNode } from "./onnx-model";
import { readWeightGroups, toOihw, type Weight, type WeightGroup } from "./tfjs-weights";

/**
 * Human's FaceRes (`@vladmandic/human`, models/faceres.json): a MobileNet v1 from
 * HSE-asavchenko/HSE_FaceRec_tf whose global pooling is a 1024-value face descriptor (its age and
 * gender heads are never run). The model ships as a tfjs graph; its few op types are translated here
 * into an ONNX graph, as ssd-mobilenet.ts rebuilds the detector, so it runs on onnxruntime in the face
 * worker. tfjs computes in NHWC, onnxruntime here in NCHW: filters are transposed and per-channel
 * constants become [C, 1, 1].
 */

/** The net reads a 224 × 224 RGB face, values 0–255, as Human feeds it. */
export const FACERES_INPUT_SIZE = 224;
export const FACERES_INPUT = "face";
export const FACERES_OUTPUT = "global_pooling/Mean";
export const DESCRIPTOR_LENGTH = 1024;

interface GraphNode {
  name: string;
  op: string;
  input?: string[];
  attr?: {
    strides?: { list: { i: string[] } };
    padding?: { s: string };
    keep_dims?: { b: boolean };
  };
}

interface GraphModel {
  modelTopology: { node: GraphNode[] };
  weightsManifest: WeightGroup[];
}

/** NHWC axis → NCHW axis. */
const NCHW_AXIS = [0, 2, 3, 1];

class GraphTranslator {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxInitializer[] = [];
  private readonly constants = new Set<string>();

  constructor(private readonly weights: Map<string, Weight>) {}

  private weight(name: string): Weight {
    const weight = this.weights.get(name);
    if (!weight) throw new Error(`FaceRes weights lack ${name}`);
    return weight;
  }

  private constant(name: string, dims: number[], data: Float32Array): string {
    if (!this.constants.has(name)) {
      this.initializers.push({ name, dims, data });
      this.constants.add(name);
    }
    return name;
  }

  /** A graph input that is a weight (a per-channel vector or a scalar), shaped to broadcast over NCHW. */
  private operand(name: string): string {
    if (!this.weights.has(name)) return name;
    const { shape, values } = this.weight(name);
    if (shape.length > 1) throw new Error(`FaceRes: ${name} is not a per-channel constant`);
    return this.constant(name, shape.length === 0 ? [] : [values.length, 1, 1], values);
  }

  translate(node: GraphNode, input: (name: string) => string): void {
    const inputs = (node.input ?? []).map(input);
    const emit = (op: string, operands: string[], attributes?: OnnxNode["attributes"]) =>
      this.nodes.push({ op, inputs: operands, outputs: [node.name], ...(attributes ? { attributes } : {}) });
    switch (node.op) {
      case "Conv2D":
      case "DepthwiseConv2dNative": {
        const [x = "", filterName = ""] = inputs;
        const depthwise = node.op === "DepthwiseConv2dNative";
        const weight = this.weight(filterName);
        const filter = toOihw(weight, depthwise ? "depthwise" : "dense");
        const [, stride = "1"] = node.attr?.strides?.list.i ?? [];
        const same = Buffer.from(node.attr?.padding?.s ?? "", "base64").toString() === "SAME";
        const [, , kh = 0, kw = 0] = filter.dims;
        // A depthwise filter is [h, w, in, multiplier]: one group per input channel.
        const [, , inputChannels = 0] = weight.shape;
        emit("Conv", [x, this.constant(filterName, filter.dims, filter.data)], {
          kernel_shape: [kh, kw],
          strides: [Number(stride), Number(stride)],
          // TensorFlow's SAME puts the odd padding pixel after, as ONNX's SAME_UPPER does.
          auto_pad: same ? "SAME_UPPER" : "VALID",
          ...(depthwise ? { group: inputChannels } : {}),
        });
        return;
      }
      case "Add":
      case "Mul":
      case "Minimum":
      case "Maximum":
        emit(
          { Add: "Add", Mul: "Mul", Minimum: "Min", Maximum: "Max" }[node.op],
          inputs.map((name) => this.operand(name)),
        );
        return;
      case "Relu":
        emit("Relu", inputs);
        return;
      case "Mean": {
        const [x = "", axesName = ""] = inputs;
        const axes = [...this.weight(axesName).values].map((axis) => NCHW_AXIS[axis] as number);
        emit("ReduceMean", [x], { axes, keepdims: node.attr?.keep_dims?.b ? 1 : 0 });
        return;
      }
      default:
        throw new Error(`FaceRes: no translation for the tfjs op ${node.op} (${node.name})`);
    }
  }
}

/** The nodes the descriptor depends on, in the graph's order (a tfjs graph lists inputs first). */
function descriptorNodes(nodes: GraphNode[]): GraphNode[] {
  const byName = new Map(nodes.map((node) => [node.name, node]));
  const needed = new Set<string>();
  const visit = (name: string) => {
    if (needed.has(name)) return;
    needed.add(name);
    for (const input of byName.get(name)?.input ?? []) visit(input);
  };
  visit(FACERES_OUTPUT);
  return nodes.filter((node) => needed.has(node.name));
}

/** Reads Human's faceres.json and its weights, and returns the descriptor net as an ONNX model. */
export async function loadFaceRes(modelPath: string): Promise<Uint8Array> {
  const model: GraphModel = JSON.parse(await readFile(modelPath, "utf8"));
  const translator = new GraphTranslator(await readWeightGroups(model.weightsManifest, dirname(modelPath)));
  let graphInput: string | undefined;
  for (const node of descriptorNodes(model.modelTopology.node)) {
    if (node.op === "Const") continue;
    if (node.op === "Placeholder") {
      graphInput = node.name;
      continue;
    }
    translator.translate(node, (name) => (name === graphInput ? FACERES_INPUT : name));
  }
  return encodeOnnxModel(
    {
      nodes: translator.nodes,
      initializers: translator.initializers,
      inputs: [{ name: FACERES_INPUT, dims: [1, 3, FACERES_INPUT_SIZE, FACERES_INPUT_SIZE] }],
      outputs: [{ name: FACERES_OUTPUT, dims: [1, DESCRIPTOR_LENGTH] }],
    },
    "dorsal-faceres",
  );
}
