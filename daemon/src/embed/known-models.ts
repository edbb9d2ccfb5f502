/**
 * Sentence-embedding models `memctl models pull` can download from the Hugging Face hub: each
 * pinned to a commit of its repository and to the SHA-256 of every file it needs, so that what
 * is downloaded is what was measured, and a file changed on the hub is refused, never loaded.
 * Nothing is downloaded unless a person asks for it.
 *
 * The digests are those the repositories' LFS pointers and several independent projects
 * pinning the same commits record; this machine cannot reach the hub, so memd's own tests pull
 * from a local server that speaks the hub's URLs instead.
 */
export interface KnownModel {
  /** The name memd knows it by: `memctl models pull <name>`, MEMD_ONNX_MODEL=<name>. */
  name: string;
  /** The hub repository and the commit its files are pinned to. */
  repository: string;
  revision: string;
  /** The files to fetch, by path in the repository; the ONNX graph is `model`. */
  files: readonly { path: string; sha256: string; bytes?: number }[];
  model: string;
  /** How token vectors become one sentence vector, as the model card documents it. */
  pooling: "mean" | "cls";
  /** What the model card says to put before a query and before a document. */
  prefixes: { query: string; document: string };
  dimensions: number;
  maxTokens: number;
  /** One line for `memctl models`. */
  summary: string;
}

export const KNOWN_MODELS: readonly KnownModel[] = [
  {
    name: "all-minilm-l6-v2",
    repository: "Xenova/all-MiniLM-L6-v2",
    revision: "751bff37182d3f1213fa05d7196b954e230abad9",
    files: [
      { path: "config.json", sha256: "7135149f7cffa1a573466c6e4d8423ed73b62fd2332c575bf738a0d033f70df7" },
      { path: "tokenizer.json", sha256: "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0", bytes: 711_661 },
      { path: "tokenizer_config.json", sha256: "9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3" },
      { path: "onnx/model_quantized.onnx", sha256: "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1", bytes: 22_972_370 },
    ],
    model: "onnx/model_quantized.onnx",
    pooling: "mean",
    prefixes: { query: "", document: "" },
    dimensions: 384,
    maxTokens: 256,
    summary: "sentence-transformers/all-MiniLM-L6-v2, int8: 6 layers, 384 dimensions, 23 MB",
  },
  {
    name: "bge-small-en-v1.5",
    repository: "BAAI/bge-small-en-v1.5",
    revision: "5c38ec7c405ec4b44b94cc5a9bb96e735b38267a",
    files: [
      { path: "config.json", sha256: "094f8e891b932f2000c92cfc663bac4c62069f5d8af5b5278c4306aef3084750" },
      { path: "tokenizer.json", sha256: "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66" },
      { path: "tokenizer_config.json", sha256: "9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3" },
      { path: "onnx/model.onnx", sha256: "828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35" },
    ],
    model: "onnx/model.onnx",
    pooling: "cls",
    // The model card: queries (not passages) take this instruction for retrieval.
    prefixes: { query: "Represent this sentence for searching relevant passages: ", document: "" },
    dimensions: 384,
    maxTokens: 512,
    summary: "BAAI/bge-small-en-v1.5, float32: 12 layers, 384 dimensions, 133 MB",
  },
];

export function knownModel(name: string): KnownModel | undefined {
  return KNOWN_MODELS.find((m) => m.name === name.trim().toLowerCase());
}
