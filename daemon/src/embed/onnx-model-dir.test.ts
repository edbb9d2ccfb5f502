import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeEncoderModel } from "../../../bench/onnx-encoder-model.js";
import { knownModel } from "./known-models.js";
import { describeExport, readOnnxModelDir } from "./onnx-model-dir.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-onnx-dir-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("describeExport", () => {
  it("reads pooling, prompts and the token limit as a sentence-transformers export documents them", () => {
    expect(
      describeExport({
        config: { hidden_size: 768, max_position_embeddings: 8192 },
        tokenizerConfig: { model_max_length: 1_000_000_000_000 },
        pooling: { word_embedding_dimension: 768, pooling_mode_cls_token: true, pooling_mode_mean_tokens: false },
        sentenceTransformers: { prompts: { query: "search_query: ", document: "search_document: " } },
        sentenceBert: { max_seq_length: 2048 },
      }),
    ).toEqual({ dimensions: 768, pooling: "cls", prefixes: { query: "search_query: ", document: "search_document: " }, maxTokens: 512 });
  });

  it("falls back to mean pooling, no prompts and the tokenizer's limit", () => {
    expect(describeExport({ config: { hidden_size: 384 }, tokenizerConfig: { model_max_length: 256 } })).toEqual({
      dimensions: 384, pooling: "mean", prefixes: { query: "", document: "" }, maxTokens: 256,
    });
  });

  it("takes a known model's card over what its files say", () => {
    const bge = knownModel("bge-small-en-v1.5");
    const described = describeExport({ config: { hidden_size: 384 } }, bge);
    expect(described.pooling).toBe("cls");
    expect(described.prefixes.query).toBe("Represent this sentence for searching relevant passages: ");
  });

  it("refuses an export whose size it cannot tell", () => {
    expect(() => describeExport({ config: {} })).toThrow(/no hidden_size/);
  });
});

describe("readOnnxModelDir", () => {
  it("reads an export written as sentence-transformers writes one", () => {
    const dir = tempDir();
    writeEncoderModel(dir, { layers: 1, hidden: 8, heads: 2, intermediate: 16, vocabulary: ["memd"], maxPositions: 32, quantized: false }, 1, "cls");
    const spec = readOnnxModelDir(dir);
    expect(spec).toMatchObject({ name: path.basename(dir), modelFile: path.join(dir, "onnx/model.onnx"), dimensions: 8, pooling: "cls", maxTokens: 32 });
  });

  it("says what is missing from a directory that is no export", () => {
    const dir = tempDir();
    expect(() => readOnnxModelDir(dir)).toThrow(/has no tokenizer\.json/);
    fs.writeFileSync(path.join(dir, "tokenizer.json"), "{}");
    fs.writeFileSync(path.join(dir, "config.json"), '{"hidden_size": 8}');
    expect(() => readOnnxModelDir(dir)).toThrow(/has no onnx\/model\.onnx/);
    fs.writeFileSync(path.join(dir, "config.json"), "{not json");
    expect(() => readOnnxModelDir(dir)).toThrow(/is not valid JSON/);
  });
});
