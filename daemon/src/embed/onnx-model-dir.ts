import fs from "node:fs";
import path from "node:path";
import { EmbedderSetupError } from "./embedder.js";
import type { KnownModel } from "./known-models.js";

/** What it takes to run a sentence-transformers ONNX export, read from its directory. */
export interface OnnxModelSpec {
  /** The name of its embedding space: a known model's name, or the directory's. */
  name: string;
  dir: string;
  /** The ONNX graph, absolute. */
  modelFile: string;
  /** tokenizer.json and tokenizer_config.json, parsed. */
  tokenizer: object;
  tokenizerConfig: object;
  dimensions: number;
  pooling: "mean" | "cls";
  prefixes: { query: string; document: string };
  /** Tokens the model reads at most, special tokens included. */
  maxTokens: number;
}

/** The files of an export that say how it is run, as parsed JSON (absent where the export has none). */
export interface ExportDescription {
  config?: { hidden_size?: number; max_position_embeddings?: number };
  tokenizerConfig?: { model_max_length?: number };
  /** 1_Pooling/config.json. */
  pooling?: { word_embedding_dimension?: number; pooling_mode_cls_token?: boolean; pooling_mode_mean_tokens?: boolean };
  /** config_sentence_transformers.json: sentence-transformers 3 keeps the prompts here. */
  sentenceTransformers?: { prompts?: Record<string, string> };
  /** sentence_bert_config.json. */
  sentenceBert?: { max_seq_length?: number };
}

/** BERT-family position tables hold 512; a tokenizer_config's "model_max_length" is often a huge placeholder. */
const MAX_TOKENS_CAP = 512;

/**
 * How to run an export, from its description: pooling and dimensions from 1_Pooling (mean
 * pooling when it has none), prompts from config_sentence_transformers.json, the token limit
 * from sentence_bert_config.json or the tokenizer. A known model's card wins where it says more.
 */
export function describeExport(description: ExportDescription, known?: KnownModel): Pick<OnnxModelSpec, "dimensions" | "pooling" | "prefixes" | "maxTokens"> {
  const dimensions = known?.dimensions ?? description.pooling?.word_embedding_dimension ?? description.config?.hidden_size;
  if (dimensions === undefined || !Number.isInteger(dimensions) || dimensions <= 0) {
    throw new EmbedderSetupError("the model's config.json gives no hidden_size, so its embedding size is unknown");
  }
  const prompts = description.sentenceTransformers?.prompts ?? {};
  const limits = [description.sentenceBert?.max_seq_length, description.tokenizerConfig?.model_max_length, description.config?.max_position_embeddings, MAX_TOKENS_CAP];
  return {
    dimensions,
    pooling: known?.pooling ?? (description.pooling?.pooling_mode_cls_token && !description.pooling.pooling_mode_mean_tokens ? "cls" : "mean"),
    prefixes: known?.prefixes ?? { query: prompts.query ?? "", document: prompts.document ?? prompts.passage ?? "" },
    maxTokens: known?.maxTokens ?? Math.min(...limits.filter((n): n is number => typeof n === "number" && n > 0)),
  };
}

/**
 * Reads a model directory: a known model as `memctl models pull` left it, or any
 * sentence-transformers ONNX export. Throws EmbedderSetupError saying what is missing.
 */
export function readOnnxModelDir(dir: string, known?: KnownModel): OnnxModelSpec {
  const read = <T>(file: string, required: boolean): T | undefined => {
    const full = path.join(dir, file);
    if (!fs.existsSync(full)) {
      if (required) throw new EmbedderSetupError(`${dir} has no ${file}: it is not a complete ONNX export of a sentence-transformers model`);
      return undefined;
    }
    try {
      return JSON.parse(fs.readFileSync(full, "utf8")) as T;
    } catch (error) {
      throw new EmbedderSetupError(`${full} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  };
  const tokenizer = read<object>("tokenizer.json", true) as object;
  const description: ExportDescription = {
    config: read("config.json", true),
    tokenizerConfig: read("tokenizer_config.json", false),
    pooling: read("1_Pooling/config.json", false),
    sentenceTransformers: read("config_sentence_transformers.json", false),
    sentenceBert: read("sentence_bert_config.json", false),
  };
  return {
    name: known?.name ?? path.basename(path.resolve(dir)),
    dir,
    modelFile: path.join(dir, known?.model ?? onnxFileOf(dir)),
    tokenizer,
    tokenizerConfig: description.tokenizerConfig ?? {},
    ...describeExport(description, known),
  };
}

/** onnx/model.onnx or model.onnx; otherwise the one .onnx file under onnx/, if it is the only one. */
function onnxFileOf(dir: string): string {
  for (const file of ["onnx/model.onnx", "model.onnx"]) if (fs.existsSync(path.join(dir, file))) return file;
  const found = fs.existsSync(path.join(dir, "onnx")) ? fs.readdirSync(path.join(dir, "onnx")).filter((f) => f.endsWith(".onnx")) : [];
  if (found.length === 1) return path.join("onnx", found[0] as string);
  throw new EmbedderSetupError(
    found.length === 0
      ? `${dir} has no onnx/model.onnx: export the model to ONNX first (optimum-cli export onnx), or pull a known one with memctl models pull`
      : `${dir}/onnx holds ${found.join(", ")}: keep the one to use as onnx/model.onnx`,
  );
}
