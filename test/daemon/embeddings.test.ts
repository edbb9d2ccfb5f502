import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { EmbedderModelState, EmbedderState, SearchMode } from "../../gen/memd/v1/memory_service_pb.js";
import { refusedUrl } from "../embed/local-http-server.js";
import { startFakeOllama } from "../embed/fake-ollama.js";
import { makeHome, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function daemonWith(env: Record<string, string>, home = makeHome()): Promise<TestDaemon> {
  const d = await spawnDaemon({ home, env });
  cleanups.push(async () => {
    if (d.process.exitCode === null) await d.kill();
  });
  return d;
}

function removeHome(home: string): void {
  cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function queueDepth(d: TestDaemon): Promise<number> {
  const { embedder } = await d.clients.admin.stats({});
  return Number(embedder?.queueDepth ?? -1);
}

describe("embeddings with the offline local model", () => {
  it("embeds a saved memory and finds it by meaning", async () => {
    const home = makeHome();
    removeHome(home);
    const d = await daemonWith({ MEMD_EMBEDDER: "local" }, home);
    const { health } = await d.clients.admin.health({});
    expect(health?.embedder).toMatchObject({ provider: "local", model: "universal-sentence-encoder-lite", dimensions: 512 });
    expect(health?.embedder?.reason).toMatch(/chosen explicitly/);

    const saved = await d.clients.memory.save({ content: "Postgres listens on port 5433 on developer machines", project: "acme", waitForVector: true });
    await d.clients.memory.save({ content: "The mobile app ships through TestFlight every Friday", project: "acme", waitForVector: true });
    expect(saved.vectorReady).toBe(true);

    const found = await d.clients.memory.search({ query: "which database port do we use locally", project: "acme", mode: SearchMode.VECTOR });
    expect(found.mode).toBe(SearchMode.VECTOR);
    expect(found.results[0]?.memory?.id).toBe(saved.memory?.id);
    expect(found.results[0]?.score).toBeGreaterThan(0);
    expect(await queueDepth(d)).toBe(0);
  });
});

describe("embeddings with the default static table", () => {
  it("is chosen when nothing else is at hand, embeds a save at once and says in Health that its model is in memory", async () => {
    const home = makeHome();
    removeHome(home);
    const d = await daemonWith({ MEMD_EMBEDDER: "auto", OLLAMA_HOST: await refusedUrl() }, home);
    const { health } = await d.clients.admin.health({});
    expect(health?.embedder).toMatchObject({ provider: "local", dimensions: 512, modelState: EmbedderModelState.LOADED, loadError: "", failedLoads: 0 });
    expect(health?.embedder?.model).toMatch(/^universal-sentence-encoder-lite-static-[0-9a-f]{8}$/);
    expect(health?.embedder?.reason).toMatch(/^static: ollama not reachable/);

    const saved = await d.clients.memory.save({ content: "Postgres listens on port 5433 on developer machines", project: "acme", waitForVector: true });
    await d.clients.memory.save({ content: "The mobile app ships through TestFlight every Friday", project: "acme", waitForVector: true });
    expect(saved.vectorReady).toBe(true);
    const found = await d.clients.memory.search({ query: "which postgres port", project: "acme", mode: SearchMode.HYBRID });
    expect(found.vectorsSkipped).toBe("");
    expect(found.results[0]?.memory?.id).toBe(saved.memory?.id);
  });
});

describe("embeddings through Ollama (against a local server speaking the Ollama API)", () => {
  it("keeps saves durable and keyword-searchable while Ollama is down, then catches up when it answers", async () => {
    const down = await refusedUrl();
    const home = makeHome();
    removeHome(home);
    const d = await daemonWith({ MEMD_EMBEDDER: "ollama", OLLAMA_HOST: down }, home);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await d.clients.memory.save({ content: `outage note number ${i} about kafka`, project: "ops" })).memory?.id ?? "");
    const keyword = await d.clients.memory.search({ query: "kafka", project: "ops" });
    expect(keyword.results).toHaveLength(5);
    const failing = await until("the embedder to report failing", async () => {
      const { health } = await d.clients.admin.health({});
      return health?.embedder?.state === EmbedderState.FAILING ? health.embedder : undefined;
    });
    expect(failing.lastError).not.toBe("");
    expect(Number(failing.queueDepth)).toBe(5);
    await d.stop();

    // Ollama comes up (on another port: the host is configuration); nothing queued was lost.
    const ollama = await startFakeOllama();
    cleanups.push(() => ollama.close());
    const again = await daemonWith({ MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url }, home);
    await until("the queue to drain", async () => ((await queueDepth(again)) === 0 ? true : undefined));
    const embedded = ollama.requests.filter((r) => r.path === "/api/embed").flatMap((r) => (r.body as { input: string[] }).input);
    expect(embedded.filter((text) => text.startsWith("search_document: "))).toHaveLength(5);
    const byMeaning = await again.clients.memory.search({ query: "outage note about kafka", project: "ops", mode: SearchMode.VECTOR });
    expect(byMeaning.results.map((r) => r.memory?.id).sort()).toEqual([...ids].sort());
  });

  it("re-embeds everything when the embedder changes, and memctl reindex rebuilds on demand", async () => {
    const ollama = await startFakeOllama();
    cleanups.push(() => ollama.close());
    const home = makeHome();
    removeHome(home);
    const first = await daemonWith({ MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url }, home);
    for (let i = 0; i < 4; i++) await first.clients.memory.save({ content: `runbook step ${i} for the billing service`, project: "ops", waitForVector: true });
    await first.stop();

    const second = await daemonWith({ MEMD_EMBEDDER: "local", OLLAMA_HOST: ollama.url }, home);
    const building = (await second.clients.admin.health({})).health?.embedder;
    expect(building).toMatchObject({ provider: "local" });
    await until("the new space to complete", async () => {
      const { health } = await second.clients.admin.health({});
      return health?.embedder?.reindexing === false && Number(health.embedder.queueDepth) === 0 ? true : undefined;
    }, 90_000);
    const found = await second.clients.memory.search({ query: "billing runbook", project: "ops", mode: SearchMode.VECTOR });
    expect(found.results).toHaveLength(4);

    const reindex = await runCli(home, ["reindex"]);
    expect(reindex.code).toBe(0);
    expect(reindex.stdout).toContain("keyword: rebuilt 4 memories");
    expect(reindex.stdout).toContain("vectors: rebuilt 4 memories");
    await second.stop();
    const db = new Database(path.join(home, "memd.db"), { readonly: true });
    const spaces = db.prepare("SELECT provider, state FROM embedding_spaces ORDER BY id").all();
    const vectors = db.prepare("SELECT COUNT(*) AS n FROM memory_vectors").get() as { n: number };
    db.close();
    expect(spaces).toEqual([{ provider: "ollama", state: "retired" }, { provider: "local", state: "active" }]);
    expect(vectors.n).toBe(4);
  });

  it("tells the query embedding's wait apart from the search's, and the search done during it, in a Server-Timing header", async () => {
    const ollama = await startFakeOllama();
    cleanups.push(() => ollama.close());
    const home = makeHome();
    removeHome(home);
    const d = await daemonWith({ MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url }, home);
    await d.clients.memory.save({ content: "grafana dashboards live in the ops folder", project: "ops", waitForVector: true });
    const timing = async (mode: SearchMode) => {
      let header = "";
      await d.clients.memory.search({ query: "grafana", project: "ops", mode }, { onHeader: (headers) => (header = headers.get("server-timing") ?? "") });
      const [, embed, search, overlap] = /^embed;dur=([\d.]+), search;dur=([\d.]+)(?:, overlap;dur=([\d.]+))?$/.exec(header) ?? [];
      return { embed: Number(embed), search: Number(search), overlap: overlap === undefined ? undefined : Number(overlap), header };
    };
    const hybrid = await timing(SearchMode.HYBRID);
    expect(hybrid.header).not.toBe("");
    expect(hybrid.embed).toBeGreaterThan(0);
    expect(hybrid.search).toBeGreaterThan(0);
    // Keyword and graph search ran while the query embedded.
    expect(hybrid.overlap).toBeGreaterThan(0);
    expect(await timing(SearchMode.VECTOR)).toMatchObject({ overlap: undefined });
    expect(await timing(SearchMode.KEYWORD)).toMatchObject({ embed: 0, overlap: undefined });
  });

  it("forgets the vectors of purged memories, so a new memory that reuses a sequence number never inherits one", async () => {
    let documentsFail = false;
    const ollama = await startFakeOllama({ failWhen: (texts) => documentsFail && texts.some((t) => t.startsWith("search_document:")) });
    cleanups.push(() => ollama.close());
    const home = makeHome();
    removeHome(home);
    const d = await daemonWith({ MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url }, home);
    await d.clients.memory.save({ content: "alerts page the on-call engineer", project: "ops", waitForVector: true });
    const old = await d.clients.memory.save({ content: "grafana dashboards live in the ops folder", project: "ops", waitForVector: true });
    await d.clients.memory.archive({ id: old.memory?.id ?? "", reason: "moved" });
    expect(Number((await d.clients.admin.purge({ confirm: "delete archived memories" })).deleted)).toBe(1);
    documentsFail = true;
    const fresh = await d.clients.memory.save({ content: "kafka topics are created by terraform", project: "ops" });
    const db = new Database(path.join(home, "memd.db"), { readonly: true });
    const seqs = db.prepare("SELECT seq FROM memories ORDER BY seq").all() as { seq: number }[];
    db.close();
    expect(seqs.map((row) => row.seq)).toEqual([1, 2]);
    const res = await d.clients.memory.search({ query: "grafana dashboards live in the ops folder", project: "ops", mode: SearchMode.VECTOR });
    expect(res.results.map((r) => r.memory?.id)).not.toContain(fresh.memory?.id);
  });

  it("re-embeds a memory whose stored vector is corrupt instead of failing the search", async () => {
    const ollama = await startFakeOllama();
    cleanups.push(() => ollama.close());
    const home = makeHome();
    removeHome(home);
    const first = await daemonWith({ MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url }, home);
    const a = await first.clients.memory.save({ content: "grafana dashboards live in the ops folder", project: "ops", waitForVector: true });
    await first.clients.memory.save({ content: "alerts page the on-call engineer", project: "ops", waitForVector: true });
    await first.stop();
    const db = new Database(path.join(home, "memd.db"));
    db.prepare("UPDATE memory_vectors SET vector = x'00010203' WHERE memory_seq = 1").run();
    db.close();

    const second = await daemonWith({ MEMD_EMBEDDER: "ollama", OLLAMA_HOST: ollama.url }, home);
    const before = await second.clients.memory.search({ query: "grafana dashboards", project: "ops", mode: SearchMode.VECTOR });
    expect(before.results.map((r) => r.memory?.id)).not.toContain(a.memory?.id);
    await until("the corrupt row to be re-embedded", async () => {
      const res = await second.clients.memory.search({ query: "grafana dashboards live in the ops folder", project: "ops", mode: SearchMode.VECTOR });
      return res.results[0]?.memory?.id === a.memory?.id ? true : undefined;
    });
  });
});
