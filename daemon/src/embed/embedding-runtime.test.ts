import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBagOfWords } from "../../../bench/fake-ollama-server.js";
import { buildMemory } from "../memory/new-memory.js";
import type { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { openStore } from "../store/open-store.js";
import { createBinaryIndex } from "../vectors/binary-index.js";
import { quantizerFromBytes, quantizerToBytes, trainQuantizer, untrainedQuantizer } from "../vectors/sign-quantizer.js";
import type { Embedder } from "./embedder.js";
import { EmbeddingRuntime } from "./embedding-runtime.js";

const NOW = Date.UTC(2026, 10, 30);
const DIMENSIONS = 64;
const ACTIVE = { kinds: [], statuses: ["active" as const] };

let dir: string;
let store: SqliteStore;
let runtime: EmbeddingRuntime;
let nextId = 0;

/** Texts sharing words lie close together: the same bag-of-words the Ollama stand-in answers with. */
function bagOfWordsEmbedder(): Embedder {
  const embed = createBagOfWords(DIMENSIONS);
  return {
    space: { provider: "test", model: "bag-of-words", dimensions: DIMENSIONS },
    maxInputChars: 10_000,
    embed: async (texts) => texts.map(embed),
    close: async () => undefined,
  };
}

async function save(content: string, status: "active" | "archived" = "active"): Promise<{ id: string; seq: number }> {
  nextId += 1;
  const id = `01J${String(nextId).padStart(23, "0")}`;
  const seq = store.insert({ ...buildMemory({ content, project: "billing" }, id, NOW, { maxContentBytes: 65_536 }), status });
  expect(await runtime.waitForVector(seq, 5_000)).toBe(true);
  return { id, seq };
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-runtime-"));
  store = openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now: () => NOW });
  runtime = await EmbeddingRuntime.start({
    vectorStore: store.vectors,
    changes: store.changes,
    admits: (filter) => store.admits(filter),
    embedder: bagOfWordsEmbedder(),
    reason: "test",
    createIndex: (space, exactVectors) =>
      createBinaryIndex({ quantizer: space.quantizer ? quantizerFromBytes(space.quantizer) : untrainedQuantizer(space.dimensions), exactVectors }),
    trainQuantizer: (sample) => quantizerToBytes(trainQuantizer(sample)),
    logger: pino({ level: "silent" }),
    now: () => NOW,
    batchDelayMs: 0,
  });
});

afterEach(async () => {
  await runtime.close();
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("EmbeddingRuntime", () => {
  it("finds the nearest memories the filter admits, however many nearer ones it turns down", async () => {
    const seed = await save("webhook worker retries charge twice");
    // Nearer to the seed than anything active: all archived.
    for (let i = 0; i < 40; i += 1) await save(`webhook worker retries charge twice again ${i}`, "archived");
    const related = await save("webhook worker idempotency key");

    const near = runtime.similarTo([seed.seq], ACTIVE, 3);
    expect(near.map((hit) => hit.memory.id)).toEqual([related.id]);

    const found = await runtime.search("webhook worker retries charge twice", ACTIVE, 2);
    expect(found.map((hit) => hit.memory.id)).toEqual([seed.id, related.id]);
    expect(found[0]?.score).toBeGreaterThan(found[1]?.score as number);
  });

  it("answers a caller that stopped waiting with nothing, without searching the index", async () => {
    const seed = await save("webhook worker retries charge twice");
    const tested: number[] = [];
    const accept = (seq: number) => {
      tested.push(seq);
      return true;
    };
    const stopped = new AbortController();
    const late = runtime.nearest("webhook worker", accept, 5, undefined, stopped.signal);
    // The embedder answers on a later turn: the caller gives up before the vector is in hand.
    stopped.abort();
    expect(await late).toEqual([]);
    expect(tested).toEqual([]);

    const waited = await runtime.nearest("webhook worker", accept, 5);
    expect(waited.map((hit) => hit.seq)).toEqual([seed.seq]);
    expect(tested).toContain(seed.seq);
  });
});
