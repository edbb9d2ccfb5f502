import fs from "node:fs";
import path from "node:path";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { mulberry32 } from "./seeded-random.js";

/**
 * A BERT-shaped sentence encoder with random weights, written as a sentence-transformers ONNX
 * export (config.json, tokenizer.json, tokenizer_config.json, 1_Pooling/config.json,
 * onnx/model.onnx). No transformer weights can be fetched here, and the speed and memory of a
 * model depend only on its shape, so the benchmark measures same-shape stand-ins and the tests
 * run a tiny one; what such a model returns means nothing.
 *
 * The graph is what a BERT export with ONNX Runtime's dynamic int8 quantization holds: token,
 * position and type embeddings (int8 tables, dequantized after the lookup), then per layer
 * self-attention and a GELU feed-forward block, each followed by a residual LayerNormalization,
 * every weight matrix applied through DynamicQuantizeLinear and MatMulInteger.
 */
export interface EncoderShape {
  layers: number;
  hidden: number;
  heads: number;
  intermediate: number;
  /** Token strings of the WordPiece vocabulary, after the five special tokens. */
  vocabulary: readonly string[];
  maxPositions: number;
  /** Int8 weights (as dynamic quantization leaves them) or float32. */
  quantized: boolean;
}

/** all-MiniLM-L6-v2 and bge-small-en-v1.5 as their configs give them, without their vocabularies. */
export const MINILM_L6_SHAPE = { layers: 6, hidden: 384, heads: 12, intermediate: 1536, maxPositions: 512 } as const;
export const BGE_SMALL_SHAPE = { layers: 12, hidden: 384, heads: 12, intermediate: 1536, maxPositions: 512 } as const;

const SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] as const;

/** Writes the model directory; returns the size of model.onnx in bytes. */
export function writeEncoderModel(dir: string, shape: EncoderShape, seed: number, pooling: "mean" | "cls" = "mean"): number {
  fs.mkdirSync(path.join(dir, "onnx"), { recursive: true });
  fs.mkdirSync(path.join(dir, "1_Pooling"), { recursive: true });
  const vocab = [...SPECIAL_TOKENS, ...shape.vocabulary];
  const json = (file: string, value: unknown) => fs.writeFileSync(path.join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
  json("config.json", {
    architectures: ["BertModel"], model_type: "bert", hidden_size: shape.hidden, num_hidden_layers: shape.layers,
    num_attention_heads: shape.heads, intermediate_size: shape.intermediate, max_position_embeddings: shape.maxPositions,
    vocab_size: vocab.length, type_vocab_size: 2,
  });
  json("tokenizer.json", wordPieceTokenizer(vocab));
  json("tokenizer_config.json", { do_lower_case: true, model_max_length: shape.maxPositions, cls_token: "[CLS]", sep_token: "[SEP]", pad_token: "[PAD]", unk_token: "[UNK]", mask_token: "[MASK]", tokenizer_class: "BertTokenizer" });
  json("1_Pooling/config.json", { word_embedding_dimension: shape.hidden, pooling_mode_cls_token: pooling === "cls", pooling_mode_mean_tokens: pooling === "mean" });
  const model = encoderGraph({ ...shape, vocabSize: vocab.length }, mulberry32(seed));
  fs.writeFileSync(path.join(dir, "onnx", "model.onnx"), model);
  return model.length;
}

/** A WordPiece tokenizer.json as the tokenizers library writes BERT's, for this vocabulary. */
function wordPieceTokenizer(vocab: readonly string[]): unknown {
  const id = (token: string) => vocab.indexOf(token);
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({ id: id(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } }, { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(["[CLS]", "[SEP]"].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab: Object.fromEntries(vocab.map((t, i) => [t, i])) },
  };
}

// ONNX's TensorProto.DataType and AttributeProto.AttributeType values.
const FLOAT = 1;
const INT8 = 3;
const INT64 = 7;
const ATTR_FLOAT = 1;
const ATTR_INT = 2;
const ATTR_INTS = 7;

interface Tensor {
  name: string;
  dims: number[];
  type: number;
  raw: Uint8Array;
}
interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: { name: string; int?: number; float?: number; ints?: number[] }[];
}

/** The encoder as an ONNX ModelProto (IR 8, opset 17), serialized. */
function encoderGraph(shape: Omit<EncoderShape, "vocabulary"> & { vocabSize: number }, random: () => number): Uint8Array {
  const { hidden: H, heads: A, intermediate: I } = shape;
  const nodes: Node[] = [];
  const initializers: Tensor[] = [];
  let counter = 0;
  const fresh = (prefix: string) => `${prefix}_${counter++}`;
  const node = (op: string, inputs: string[], attributes?: Node["attributes"]) => {
    const out = fresh(op);
    nodes.push({ op, inputs, outputs: [out], attributes });
    return out;
  };
  const constant = (name: string, dims: number[], type: number, raw: Uint8Array) => {
    initializers.push({ name, dims, type, raw });
    return name;
  };
  const floats = (name: string, dims: number[], scale: number, offset = 0) => {
    const values = new Float32Array(dims.reduce((a, b) => a * b, 1)).map(() => offset + (random() * 2 - 1) * scale);
    return constant(name, dims, FLOAT, new Uint8Array(values.buffer));
  };
  const scalar = (name: string, value: number) => constant(name, [], FLOAT, new Uint8Array(new Float32Array([value]).buffer));
  const int64s = (name: string, values: number[]) => constant(name, [values.length], INT64, new Uint8Array(new BigInt64Array(values.map(BigInt)).buffer));
  const scalarInt64 = (name: string, value: number) => constant(name, [], INT64, new Uint8Array(new BigInt64Array([BigInt(value)]).buffer));
  const int8s = (name: string, dims: number[]) =>
    constant(name, dims, INT8, new Uint8Array(new Int8Array(dims.reduce((a, b) => a * b, 1)).map(() => Math.round((random() * 2 - 1) * 100)).buffer));

  // y = x W + b, W [n, m]: int8 through DynamicQuantizeLinear and MatMulInteger, or float32.
  const dense = (x: string, n: number, m: number) => {
    const label = fresh("dense");
    const bias = floats(`${label}.bias`, [m], 0.02);
    if (!shape.quantized) return node("Add", [node("MatMul", [x, floats(`${label}.weight`, [n, m], 1 / Math.sqrt(n))]), bias]);
    const weight = int8s(`${label}.weight_quantized`, [n, m]);
    const weightScale = scalar(`${label}.weight_scale`, 1 / (100 * Math.sqrt(n)));
    const quantized = fresh("x_quantized");
    const scale = fresh("x_scale");
    const zero = fresh("x_zero_point");
    nodes.push({ op: "DynamicQuantizeLinear", inputs: [x], outputs: [quantized, scale, zero] });
    const product = node("Cast", [node("MatMulInteger", [quantized, weight, zero])], [{ name: "to", int: FLOAT }]);
    return node("Add", [node("Mul", [product, node("Mul", [scale, weightScale])]), bias]);
  };
  const layerNorm = (x: string) => {
    const label = fresh("norm");
    return node("LayerNormalization", [x, floats(`${label}.gamma`, [H], 0.05, 1), floats(`${label}.beta`, [H], 0.05)], [{ name: "axis", int: -1 }, { name: "epsilon", float: 1e-12 }]);
  };
  // An embedding table looked up by ids: int8 rows dequantized after the lookup, as quantized exports keep them.
  const embed = (ids: string, rows: number, label: string) => {
    if (!shape.quantized) return node("Gather", [floats(`${label}.weight`, [rows, H], 0.05), ids]);
    const looked = node("Gather", [int8s(`${label}.weight_quantized`, [rows, H]), ids]);
    return node("DequantizeLinear", [looked, scalar(`${label}.scale`, 0.0005), constant(`${label}.zero_point`, [], INT8, new Uint8Array([0]))]);
  };

  // Position ids 0..sequence-1: Range takes scalars, so the length is squeezed out of Shape.
  const length = node("Squeeze", [node("Gather", [node("Shape", ["input_ids"]), int64s("length_index", [1])], [{ name: "axis", int: 0 }]), int64s("length_axes", [0])]);
  const positionIds = node("Unsqueeze", [node("Range", [scalarInt64("range_start", 0), length, scalarInt64("range_step", 1)]), int64s("position_axes", [0])]);
  let x = layerNorm(node("Add", [node("Add", [embed("input_ids", shape.vocabSize, "word"), embed(positionIds, shape.maxPositions, "position")]), embed("token_type_ids", 2, "token_type")]));
  // Padding gets -10000 before the softmax: (1 - mask) * -10000, shaped [batch, 1, 1, sequence].
  const maskFloat = node("Cast", ["attention_mask"], [{ name: "to", int: FLOAT }]);
  const mask = node("Unsqueeze", [node("Mul", [node("Sub", [scalar("mask_one", 1), maskFloat]), scalar("mask_fill", -10000)]), int64s("mask_axes", [1, 2])]);
  const D = H / A;
  const heads = int64s("heads_shape", [0, 0, A, D]);
  const merged = int64s("merged_shape", [0, 0, H]);
  for (let layer = 0; layer < shape.layers; layer += 1) {
    const split = (t: string, perm: number[]) => node("Transpose", [node("Reshape", [t, heads])], [{ name: "perm", ints: perm }]);
    const q = split(dense(x, H, H), [0, 2, 1, 3]);
    const k = split(dense(x, H, H), [0, 2, 3, 1]);
    const v = split(dense(x, H, H), [0, 2, 1, 3]);
    const scores = node("Add", [node("Mul", [node("MatMul", [q, k]), scalar(`scale_${layer}`, 1 / Math.sqrt(D))]), mask]);
    const context = node("MatMul", [node("Softmax", [scores], [{ name: "axis", int: -1 }]), v]);
    const attended = dense(node("Reshape", [node("Transpose", [context], [{ name: "perm", ints: [0, 2, 1, 3] }]), merged]), H, H);
    x = layerNorm(node("Add", [x, attended]));
    // GELU as BERT exports write it, 0.5 x (1 + erf(x / sqrt 2)); ONNX Runtime fuses it.
    const h = dense(x, H, I);
    const gelu = node("Mul", [node("Mul", [h, scalar(`half_${layer}`, 0.5)]), node("Add", [node("Erf", [node("Div", [h, scalar(`sqrt2_${layer}`, Math.SQRT2)])]), scalar(`one_${layer}`, 1)])]);
    x = layerNorm(node("Add", [x, dense(gelu, I, H)]));
  }
  nodes.push({ op: "Identity", inputs: [x], outputs: ["last_hidden_state"] });
  return modelProto(nodes, initializers);
}

/** Serializes a ModelProto with the three BERT inputs and last_hidden_state as output. */
function modelProto(nodes: readonly Node[], initializers: readonly Tensor[]): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, WireType.Varint).int64(8); // ir_version
  w.tag(2, WireType.LengthDelimited).string("memd bench");
  w.tag(8, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string("").tag(2, WireType.Varint).int64(17).join();
  w.tag(7, WireType.LengthDelimited).fork();
  for (const n of nodes) {
    w.tag(1, WireType.LengthDelimited).fork();
    for (const input of n.inputs) w.tag(1, WireType.LengthDelimited).string(input);
    for (const output of n.outputs) w.tag(2, WireType.LengthDelimited).string(output);
    w.tag(4, WireType.LengthDelimited).string(n.op);
    for (const a of n.attributes ?? []) {
      w.tag(5, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string(a.name);
      if (a.float !== undefined) w.tag(2, WireType.Bit32).float(a.float).tag(20, WireType.Varint).int32(ATTR_FLOAT);
      else if (a.int !== undefined) w.tag(3, WireType.Varint).int64(a.int).tag(20, WireType.Varint).int32(ATTR_INT);
      else {
        for (const i of a.ints ?? []) w.tag(8, WireType.Varint).int64(i);
        w.tag(20, WireType.Varint).int32(ATTR_INTS);
      }
      w.join();
    }
    w.join();
  }
  w.tag(2, WireType.LengthDelimited).string("encoder");
  for (const t of initializers) {
    w.tag(5, WireType.LengthDelimited).fork();
    for (const d of t.dims) w.tag(1, WireType.Varint).int64(d);
    w.tag(2, WireType.Varint).int32(t.type).tag(8, WireType.LengthDelimited).string(t.name).tag(9, WireType.LengthDelimited).bytes(t.raw);
    w.join();
  }
  const valueInfo = (field: number, name: string, type: number, dims: (string | number)[]) => {
    w.tag(field, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string(name);
    w.tag(2, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int32(type);
    w.tag(2, WireType.LengthDelimited).fork();
    for (const d of dims) {
      w.tag(1, WireType.LengthDelimited).fork();
      if (typeof d === "number") w.tag(1, WireType.Varint).int64(d);
      else w.tag(2, WireType.LengthDelimited).string(d);
      w.join();
    }
    w.join().join().join().join();
  };
  for (const input of ["input_ids", "attention_mask", "token_type_ids"]) valueInfo(11, input, INT64, ["batch", "sequence"]);
  valueInfo(12, "last_hidden_state", FLOAT, ["batch", "sequence", "hidden"]);
  w.join();
  return w.finish();
}

