/**
 * Protocol Buffers' wire format, as much as ONNX models need: building a model in memory
 * (faces/onnx-model.ts) and editing a shipped one field by field (fold-affine.ts). The ONNX schema
 * packages on npm drag in an old protobufjs for a few hundred bytes of this.
 */

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

/** One field as it was on the wire: varints as bigint, every other kind as its bytes. */
export type ProtoField =
  | { field: number; wire: typeof WIRE_VARINT; value: bigint }
  | { field: number; wire: typeof WIRE_FIXED64 | typeof WIRE_BYTES | typeof WIRE_FIXED32; value: Uint8Array };

/** A varint at `offset`, and the offset after it. */
function readVarint(bytes: Uint8Array, offset: number): { value: bigint; next: number } {
  let value = 0n;
  for (let shift = 0n, at = offset; ; shift += 7n) {
    if (at >= bytes.length) throw new Error("protobuf: message ends inside a varint");
    const byte = bytes[at++] as number;
    value |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return { value, next: at };
  }
}

/** A message's fields in wire order; byte fields are views of `bytes`, not copies. */
export function decodeMessage(bytes: Uint8Array): ProtoField[] {
  const fields: ProtoField[] = [];
  let offset = 0;
  const varint = (): bigint => {
    const { value, next } = readVarint(bytes, offset);
    offset = next;
    return value;
  };
  const take = (length: number): Uint8Array => {
    if (offset + length > bytes.length) throw new Error("protobuf: field runs past the message");
    const value = bytes.subarray(offset, offset + length);
    offset += length;
    return value;
  };
  while (offset < bytes.length) {
    const key = Number(varint());
    const field = key >>> 3;
    const wire = key & 7;
    if (wire === WIRE_VARINT) fields.push({ field, wire, value: varint() });
    else if (wire === WIRE_BYTES) fields.push({ field, wire, value: take(Number(varint())) });
    else if (wire === WIRE_FIXED32) fields.push({ field, wire, value: take(4) });
    else if (wire === WIRE_FIXED64) fields.push({ field, wire, value: take(8) });
    else throw new Error(`protobuf: wire type ${wire} is not supported`);
  }
  return fields;
}

/** The values of a repeated integer field, packed or not. */
export function integersOf(fields: readonly ProtoField[], field: number): bigint[] {
  const values: bigint[] = [];
  for (const f of fields) {
    if (f.field !== field) continue;
    if (f.wire === WIRE_VARINT) values.push(f.value);
    else if (f.wire === WIRE_BYTES) {
      for (let offset = 0; offset < f.value.length; ) {
        const { value, next } = readVarint(f.value, offset);
        values.push(value);
        offset = next;
      }
    }
  }
  return values;
}

export function stringOf(fields: readonly ProtoField[], field: number): string | undefined {
  const f = fields.find((candidate) => candidate.field === field && candidate.wire === WIRE_BYTES);
  return f ? new TextDecoder().decode(f.value as Uint8Array) : undefined;
}

export function stringsOf(fields: readonly ProtoField[], field: number): string[] {
  return fields
    .filter((f) => f.field === field && f.wire === WIRE_BYTES)
    .map((f) => new TextDecoder().decode(f.value as Uint8Array));
}

export function float32Of(fields: readonly ProtoField[], field: number): number | undefined {
  const f = fields.find((candidate) => candidate.field === field && candidate.wire === WIRE_FIXED32);
  if (!f) return undefined;
  const bytes = f.value as Uint8Array;
  return new DataView(bytes.buffer, bytes.byteOffset, 4).getFloat32(0, true);
}

export class Writer {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  varint(value: number | bigint): this {
    let v = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    do {
      const low = Number(v & 0x7fn);
      v >>= 7n;
      bytes.push(v > 0n ? low | 0x80 : low);
    } while (v > 0n);
    return this.raw(Uint8Array.from(bytes));
  }

  int(field: number, value: number | bigint): this {
    return this.varint((field << 3) | WIRE_VARINT).varint(value);
  }

  float32(field: number, value: number): this {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    return this.varint((field << 3) | WIRE_FIXED32).raw(bytes);
  }

  bytes(field: number, value: Uint8Array): this {
    return this.varint((field << 3) | WIRE_BYTES)
      .varint(value.length)
      .raw(value);
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, build: (writer: Writer) => void): this {
    const inner = new Writer();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  /** A decoded field written back as it was. */
  copy(f: ProtoField): this {
    if (f.wire === WIRE_VARINT) return this.int(f.field, f.value);
    if (f.wire === WIRE_BYTES) return this.bytes(f.field, f.value);
    return this.varint((f.field << 3) | f.wire).raw(f.value);
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }

  raw(value: Uint8Array): this {
    this.chunks.push(value);
    this.length += value.length;
    return this;
  }
}
