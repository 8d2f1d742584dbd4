import * as onnxProto from 'onnx-proto';

/**
 * A few helpers over `onnx-proto` for writing small ONNX graphs by hand (test
 * models only; onnx-proto is a dev dependency and nothing in the app imports
 * this).
 */

// onnx-proto is CommonJS (`module.exports = { onnx }`); bundlers and Node's
// interop expose it either as a named export or under `default`.
const moduleRecord = onnxProto as unknown as { onnx?: typeof onnxProto.onnx; default?: typeof onnxProto };
const resolved = moduleRecord.onnx ?? moduleRecord.default?.onnx;
if (!resolved) throw new Error('onnx-proto did not load');
export const onnx: typeof onnxProto.onnx = resolved;

export type ElementType = 'float32' | 'int64' | 'bool';

const ELEMENT_TYPES: Record<ElementType, number> = {
  float32: onnx.TensorProto.DataType.FLOAT,
  int64: onnx.TensorProto.DataType.INT64,
  bool: onnx.TensorProto.DataType.BOOL,
};

/** A dimension: a fixed size, or a symbolic name (transformers.js reads `batch_size`; others count as 0 for an empty cache). */
export type Dimension = number | string;

export function valueInfo(
  name: string,
  type: ElementType,
  shape: readonly Dimension[],
): onnxProto.onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: ELEMENT_TYPES[type],
        shape: { dim: shape.map((dim) => (typeof dim === 'number' ? { dimValue: dim } : { dimParam: dim })) },
      },
    },
  };
}

export function floatTensor(
  name: string,
  dims: readonly number[],
  values: Float32Array,
): onnxProto.onnx.ITensorProto {
  if (values.length !== dims.reduce((a, b) => a * b, 1))
    throw new Error(`${name}: size does not match ${dims}`);
  return {
    name,
    dims: [...dims],
    dataType: ELEMENT_TYPES.float32,
    rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
  };
}

export function int64Tensor(
  name: string,
  dims: readonly number[],
  values: readonly number[],
): onnxProto.onnx.ITensorProto {
  const data = new BigInt64Array(values.map((value) => BigInt(value)));
  return {
    name,
    dims: [...dims],
    dataType: ELEMENT_TYPES.int64,
    rawData: new Uint8Array(data.buffer),
  };
}

type AttributeValue = number | readonly number[] | onnxProto.onnx.IGraphProto;

export function node(
  opType: string,
  inputs: readonly string[],
  outputs: readonly string[],
  attributes: Record<string, AttributeValue> = {},
): onnxProto.onnx.INodeProto {
  const { AttributeType } = onnx.AttributeProto;
  return {
    opType,
    name: `${opType}_${outputs[0] ?? ''}`,
    input: [...inputs],
    output: [...outputs],
    attribute: Object.entries(attributes).map(([name, value]) => {
      if (typeof value === 'number') {
        return Number.isInteger(value)
          ? { name, type: AttributeType.INT, i: value }
          : { name, type: AttributeType.FLOAT, f: value };
      }
      if (Array.isArray(value)) return { name, type: AttributeType.INTS, ints: [...(value as number[])] };
      return { name, type: AttributeType.GRAPH, g: value as onnxProto.onnx.IGraphProto };
    }),
  };
}

export interface GraphParts {
  name: string;
  nodes: onnxProto.onnx.INodeProto[];
  inputs: onnxProto.onnx.IValueInfoProto[];
  outputs: onnxProto.onnx.IValueInfoProto[];
  initializers?: onnxProto.onnx.ITensorProto[];
}

export function graph({
  name,
  nodes,
  inputs,
  outputs,
  initializers = [],
}: GraphParts): onnxProto.onnx.IGraphProto {
  return { name, node: nodes, input: inputs, output: outputs, initializer: initializers };
}

/** Serialized ModelProto (IR 8, default-domain opset 17: what onnxruntime 1.2x-1.3x reads everywhere). */
export function encodeModel(main: onnxProto.onnx.IGraphProto): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'notesagent-tiny-whisper',
    opsetImport: [{ domain: '', version: 17 }],
    graph: main,
  });
  return onnx.ModelProto.encode(model).finish();
}
