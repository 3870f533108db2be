import { Writer } from "../onnx/protobuf";

/**
 * Just enough of ONNX's protobuf schema (onnx.proto, proto2) to hand onnxruntime a graph of float
 * tensors built in memory: the face weights ship as tfjs weight files, not as an .onnx file.
 */

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, number | number[] | string>;
}

export interface OnnxInitializer {
  name: string;
  dims: number[];
  data: Float32Array | BigInt64Array;
}

export interface OnnxValue {
  name: string;
  dims: number[];
}

export interface OnnxGraph {
  nodes: OnnxNode[];
  initializers: OnnxInitializer[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
}

// Field numbers and enum values from onnx.proto.
const TENSOR_FLOAT = 1;
const TENSOR_INT64 = 7;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_STRING = 3;
const ATTRIBUTE_INTS = 7;
const IR_VERSION = 8;
const OPSET = 13;

function writeAttribute(w: Writer, name: string, value: number | number[] | string): void {
  w.string(1, name);
  if (typeof value === "string") w.int(20, ATTRIBUTE_STRING).string(4, value);
  else if (Array.isArray(value)) {
    w.int(20, ATTRIBUTE_INTS);
    for (const v of value) w.int(8, v);
  } else w.int(20, ATTRIBUTE_INT).int(3, value);
}

function writeNode(w: Writer, node: OnnxNode, index: number): void {
  for (const input of node.inputs) w.string(1, input);
  for (const output of node.outputs) w.string(2, output);
  w.string(3, `${node.op}_${index}`).string(4, node.op);
  for (const [name, value] of Object.entries(node.attributes ?? {})) {
    w.message(5, (a) => writeAttribute(a, name, value));
  }
}

function writeInitializer(w: Writer, tensor: OnnxInitializer): void {
  for (const dim of tensor.dims) w.int(1, dim);
  w.int(2, tensor.data instanceof Float32Array ? TENSOR_FLOAT : TENSOR_INT64);
  w.string(8, tensor.name);
  // raw_data is little-endian, as are the typed arrays on every platform Node ships for.
  w.bytes(9, new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
}

function writeValue(w: Writer, value: OnnxValue): void {
  w.string(1, value.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, TENSOR_FLOAT);
      tensor.message(2, (shape) => {
        for (const dim of value.dims) {
          shape.message(1, (d) => d.int(1, dim));
        }
      });
    }),
  );
}

/** Serialises a float graph as an ONNX model that onnxruntime's `InferenceSession.create` accepts. */
export function encodeOnnxModel(graph: OnnxGraph, producer: string): Uint8Array {
  const w = new Writer();
  w.int(1, IR_VERSION).string(2, producer);
  w.message(7, (g) => {
    graph.nodes.forEach((node, i) => {
      g.message(1, (n) => writeNode(n, node, i));
    });
    g.string(2, producer);
    for (const tensor of graph.initializers) g.message(5, (t) => writeInitializer(t, tensor));
    for (const input of graph.inputs) g.message(11, (v) => writeValue(v, input));
    for (const output of graph.outputs) g.message(12, (v) => writeValue(v, output));
  });
  w.message(8, (opset) => opset.string(1, "").int(2, OPSET));
  return w.finish();
}
