import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UnavailableError } from "../errors.js";
import { normalizedContentHash } from "../lifecycle/content-hash.js";
import { buildMemory } from "../memory/new-memory.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { extractEntities } from "./entities.js";
import { hybridSearch, type VectorCandidates } from "./hybrid-search.js";

const NOW = Date.UTC(2026, 10, 29);

let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-hybrid-"));
  store = new SqliteStore({
    file: path.join(dir, "memd.db"),
    backupDir: path.join(dir, "backups"),
    now: () => NOW,
    entitiesOf: extractEntities,
    contentHashOf: normalizedContentHash,
  });
});

afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function save(id: string, content: string): number {
  return store.insert(buildMemory({ content, project: "ledger", concepts: ["webhooks"] }, id, NOW, { maxContentBytes: 65536 }));
}

/** Vector candidates whose query embedding takes a while; `during` runs just before the vector arrives. */
function slowEmbedder(log: string[], during: () => void = () => undefined): VectorCandidates {
  return {
    nearest: () =>
      new Promise((resolve) =>
        setTimeout(() => {
          during();
          log.push("embedded");
          resolve([]);
        }, 20),
      ),
  };
}

/** Logs each read of whole memories (of at least one) to `log`, and returns it. */
function logReads(log: string[]): string[] {
  const read = store.memoriesBySeq.bind(store);
  store.memoriesBySeq = (seqs) => {
    if (seqs.length > 0) log.push(`read ${seqs.length}`);
    return read(seqs);
  };
  return log;
}

function search(vectors: VectorCandidates) {
  return hybridSearch(store, vectors, { query: "webhook retries", project: "ledger", excludeGlobal: false, filter: { kinds: [], statuses: ["active"] }, limit: 10, now: NOW });
}

describe("hybridSearch while the query embeds", () => {
  it("searches keywords and the graph before the query's vector arrives", async () => {
    save("01J00000000000000000000001", "webhook retries double-charged customers");
    const log: string[] = [];
    const keywordSearch = store.searchKeywordScopes.bind(store);
    store.searchKeywordScopes = (query, scopes) => {
      log.push("keyword");
      return keywordSearch(query, scopes);
    };
    const graphSearch = store.searchGraph.bind(store);
    store.searchGraph = (graph) => {
      log.push("graph");
      return graphSearch(graph);
    };
    const results = await search(slowEmbedder(log));
    expect(log).toEqual(["keyword", "graph", "embedded"]);
    expect(results.map((r) => r.memory.id)).toEqual(["01J00000000000000000000001"]);
  });

  it("leaves out a keyword match archived while the query embedded", async () => {
    save("01J00000000000000000000001", "webhook retries double-charged customers");
    save("01J00000000000000000000002", "webhook retries are capped at five");
    const results = await search(
      slowEmbedder([], () => {
        store.modify("01J00000000000000000000001", (m) => ({ ...m, status: "archived" }));
      }),
    );
    expect(results.map((r) => r.memory.id)).toEqual(["01J00000000000000000000002"]);
  });

  it("reads the likely winners' memories while the query embeds, and none again after", async () => {
    save("01J00000000000000000000001", "webhook retries double-charged customers");
    save("01J00000000000000000000002", "webhook retries are capped at five");
    const log = logReads([]);
    const results = await search(slowEmbedder(log));
    expect(log).toEqual(["read 2", "embedded"]);
    expect(results.map((r) => r.memory.content).sort()).toEqual(["webhook retries are capped at five", "webhook retries double-charged customers"]);
  });

  it("reads nothing early when the query's vector is in hand before keyword search ends", async () => {
    save("01J00000000000000000000001", "webhook retries double-charged customers");
    const log = logReads([]);
    const facets = store.rankingFacets.bind(store);
    store.rankingFacets = () => {
      log.push("ranking");
      return facets();
    };
    const results = await search({ nearest: () => Promise.resolve([]) });
    expect(log).toEqual(["ranking", "read 1"]);
    expect(results.map((r) => r.memory.id)).toEqual(["01J00000000000000000000001"]);
  });

  it("returns a winner as it is after an edit made while the query embedded, not as it was read then", async () => {
    save("01J00000000000000000000001", "webhook retries double-charged customers");
    const results = await search(
      slowEmbedder([], () => {
        store.modify("01J00000000000000000000001", (m) => ({ ...m, content: "webhook retries double-charged customers twice" }));
      }),
    );
    expect(results.map((r) => r.memory.content)).toEqual(["webhook retries double-charged customers twice"]);
  });

  it("fails with the embedder's error when the embedding fails while keywords are searched", async () => {
    save("01J00000000000000000000001", "webhook retries double-charged customers");
    const failing: VectorCandidates = { nearest: () => Promise.reject(new UnavailableError("the ollama embedder failed: connection refused")) };
    await expect(search(failing)).rejects.toThrow("connection refused");
  });
});
