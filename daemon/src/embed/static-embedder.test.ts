import { describe, expect, it } from "vitest";
import { createAsymmetricEmbedder } from "./asymmetric-embedder.js";
import { type Embedder, EmbeddingError } from "./embedder.js";
import { pieceVectors } from "./distill-static-table.js";
import { createStaticEmbedder, loadStaticModel } from "./static-embedder.js";
import { distillTable } from "./static-table.js";
import { USE_DIMENSIONS } from "./use-lite-windows.js";

const model = loadStaticModel();

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);

describe("the static embedder on the shipped table", () => {
  it("embeds a text as a unit vector in USE-lite's 512 dimensions, the same every time", async () => {
    const embedder = createStaticEmbedder(model);
    const [a, again] = await embedder.embed(["Auth is Clerk, not custom JWT", "Auth is Clerk, not custom JWT"], "document");
    expect(a?.length).toBe(USE_DIMENSIONS);
    expect(dot(a as Float32Array, a as Float32Array)).toBeCloseTo(1, 5);
    expect([...(again as Float32Array)]).toEqual([...(a as Float32Array)]);
  });

  it("puts a question nearer the memory that answers it than an unrelated one", async () => {
    const embedder = createStaticEmbedder(model);
    const [query, answer, other] = await embedder.embed(
      ["why is the database slow", "Postgres queries on the orders table time out without an index", "The team lunch is on Friday at noon"],
      "query",
    );
    expect(dot(query as Float32Array, answer as Float32Array)).toBeGreaterThan(dot(query as Float32Array, other as Float32Array));
  });

  it("gives a text of pieces no row covers the unknown piece's direction, and refuses a blank one", async () => {
    const embedder = createStaticEmbedder(model);
    const [unknown] = await embedder.embed(["\u{1F9EA}\u{1F9EA}"], "query");
    expect(dot(unknown as Float32Array, unknown as Float32Array)).toBeCloseTo(1, 5);
    await expect(embedder.embed(["  \n"], "query")).rejects.toThrow(EmbeddingError);
  });

  it("lets other work run while it embeds a large batch of documents", async () => {
    const embedder = createStaticEmbedder(model);
    const long = "The deploy script tags the image, pushes it to the registry and rolls the service. ".repeat(24);
    let ranBetween = false;
    setImmediate(() => (ranBetween = true));
    const texts = Array.from({ length: 400 }, (_, i) => `${i} ${long}`);
    const vectors = await embedder.embed(texts, "document");
    expect(vectors).toHaveLength(400);
    // The batch takes far longer than one slice (about 2 ms a text): an immediate queued first ran before it ended.
    expect(ranBetween).toBe(true);
  });

  it("refuses calls after close", async () => {
    const embedder = createStaticEmbedder(model);
    await embedder.close();
    await expect(embedder.embed(["x"], "query")).rejects.toThrow("the static embedder was closed");
  });

  it("is the distillation of the USE-lite model that is installed (npm run generate:static-table)", async () => {
    const { vectors, vocabulary } = await pieceVectors();
    const fresh = distillTable(vectors, vocabulary, USE_DIMENSIONS);
    const { table } = model;
    expect(table.vocabularyDigest).toBe(fresh.vocabularyDigest);
    let worst = 1;
    for (let row = 0; row < table.rows; row += 37) {
      const at = row * USE_DIMENSIONS;
      const shipped = Float32Array.from(table.values.subarray(at, at + USE_DIMENSIONS), (v) => v * (table.scales[row] as number));
      const made = Float32Array.from(fresh.values.subarray(at, at + USE_DIMENSIONS), (v) => v * (fresh.scales[row] as number));
      const norms = Math.sqrt(dot(shipped, shipped) * dot(made, made));
      if (norms > 0) worst = Math.min(worst, dot(shipped, made) / norms);
      expect(table.scales[row]).toBeCloseTo(fresh.scales[row] as number, 6);
    }
    expect(worst).toBeGreaterThan(0.999);
  }, 120_000);
});

describe("the asymmetric embedder", () => {
  it("embeds queries with one embedder and documents with the other, in the documents' space", async () => {
    const stub = (name: string, dimensions: number): Embedder => ({
      space: { provider: "local", model: name, dimensions },
      maxInputChars: 100,
      embed: async (texts) => texts.map(() => Float32Array.from({ length: dimensions }, (_, d) => (d === 0 ? (name === "full" ? 1 : -1) : 0))),
      close: async () => undefined,
    });
    const embedder = createAsymmetricEmbedder(stub("full", 2), stub("table", 2));
    expect(embedder.space.model).toBe("full");
    expect((await embedder.embed(["memory"], "document"))[0]?.[0]).toBe(1);
    expect((await embedder.embed(["query"], "query"))[0]?.[0]).toBe(-1);
    expect(() => createAsymmetricEmbedder(stub("full", 2), stub("table", 3))).toThrow("queries of 3 dimensions cannot search documents of 2");
  });
});
