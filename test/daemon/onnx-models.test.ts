import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeEncoderModel } from "../../bench/onnx-encoder-model.js";
import { EmbedderModelState, SearchMode } from "../../gen/memd/v1/memory_service_pb.js";
import { KNOWN_MODELS } from "../../daemon/src/embed/known-models.js";
import { readOnnxModelDir } from "../../daemon/src/embed/onnx-model-dir.js";
import { type FakeHub, startFakeHub } from "../embed/fake-hub.js";
import { refusedUrl } from "../embed/local-http-server.js";
import { makeHome, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function home(): string {
  const dir = makeHome();
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function daemon(dir: string, env: Record<string, string>): Promise<TestDaemon> {
  // No Ollama here: auto selection must not find one on this machine's default port.
  const d = await spawnDaemon({ home: dir, env: { OLLAMA_HOST: await refusedUrl(), ...env } });
  cleanups.push(() => (d.process.exitCode === null ? d.kill() : undefined));
  return d;
}

/** A tiny random-weight encoder written as a sentence-transformers export: it runs through the real ONNX Runtime. */
function tinyExport(parent: string): string {
  const dir = path.join(parent, "tiny-encoder");
  writeEncoderModel(dir, { layers: 1, hidden: 16, heads: 2, intermediate: 32, maxPositions: 64, quantized: true, vocabulary: "webhook retries capped five deploy argo auth clerk".split(" ") }, 5);
  return dir;
}

async function untilEmbedded(d: TestDaemon): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    const { embedder } = await d.clients.admin.stats({});
    if (embedder?.queueDepth === 0n) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the embedding queue did not drain");
}

describe("ONNX models in the daemon", () => {
  it("embeds and searches with an ONNX export that MEMD_ONNX_MODEL names, chosen by auto when no Ollama answers", async () => {
    const dir = home();
    const d = await daemon(dir, { MEMD_EMBEDDER: "auto", MEMD_ONNX_MODEL: tinyExport(dir) });
    const { health } = await d.clients.admin.health({});
    expect(health?.embedder).toMatchObject({ provider: "onnx", model: "tiny-encoder", dimensions: 16 });
    expect(health?.embedder?.reason).toMatch(/^onnx tiny-encoder: installed in .*; ollama not reachable/);
    const saved = await d.clients.memory.save({ content: "webhook retries are capped at five", project: "api" });
    await d.clients.memory.save({ content: "deploy with argo", project: "api" });
    await untilEmbedded(d);
    const { results } = await d.clients.memory.search({ query: "webhook retries", project: "api", mode: SearchMode.VECTOR, limit: 2 });
    expect(results).toHaveLength(2);
    expect(results.map((r) => r.memory?.id)).toContain(saved.memory?.id);
  });

  it("tries a model that failed to load again within seconds, says so in Health and memctl, and embeds once it loads", async () => {
    const dir = home();
    const model = tinyExport(dir);
    const file = readOnnxModelDir(model).modelFile;
    const graph = fs.readFileSync(file);
    fs.writeFileSync(file, "not a model");
    const d = await daemon(dir, { MEMD_EMBEDDER: "onnx", MEMD_ONNX_MODEL: model });
    await d.clients.memory.save({ content: "webhook retries are capped at five", project: "api" });
    await expect
      .poll(async () => (await d.clients.admin.health({})).health?.embedder, { timeout: 30_000 })
      .toMatchObject({ modelState: EmbedderModelState.FAILED, loadError: expect.stringMatching(/^ONNX Runtime cannot load .*model\.onnx/) });
    const cli = await runCli(dir, ["health"]);
    expect(cli.stdout).toMatch(/model: failed\n {2}load error \(\d+ in a row, tried again soon\): ONNX Runtime cannot load /);

    // Put right while the daemon runs: the next try, seconds away (not the 10 minutes of a permanent failure), embeds it.
    fs.writeFileSync(file, graph);
    await untilEmbedded(d);
    const { health } = await d.clients.admin.health({});
    expect(health?.embedder).toMatchObject({ modelState: EmbedderModelState.LOADED, loadError: "", failedLoads: 0 });
  });

  it("refuses to start with MEMD_EMBEDDER=onnx and no model, saying how to get one", async () => {
    const dir = home();
    await expect(daemon(dir, { MEMD_EMBEDDER: "onnx" })).rejects.toThrow(/none is installed: `memctl models pull all-minilm-l6-v2` downloads one/);
  });
});

describe("memctl models, against a local server that speaks the hub's file URLs", () => {
  let hub: FakeHub | undefined;
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
  });

  it("lists the known models, none installed, and the embedder in use", async () => {
    const dir = home();
    await daemon(dir, { MEMD_EMBEDDER: "none" });
    const out = await runCli(dir, ["models"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("embedder now: none");
    for (const m of KNOWN_MODELS) expect(out.stdout).toContain(`available  ${m.name}`);
    const json = JSON.parse((await runCli(dir, ["models", "--json"])).stdout) as { models: { name: string; installed: boolean; path: string }[] };
    expect(json.models[0]).toMatchObject({ name: "all-minilm-l6-v2", installed: false, path: path.join(dir, "models", "all-minilm-l6-v2") });
  });

  it("refuses a hub file that does not match the model's pinned digest, and installs nothing", async () => {
    const dir = home();
    const model = KNOWN_MODELS[0] as (typeof KNOWN_MODELS)[number];
    // The right paths at the pinned revision, with bytes that are not the pinned files.
    hub = await startFakeHub(new Map(model.files.map((f) => [`/${model.repository}/resolve/${model.revision}/${f.path}`, { body: Buffer.from(`not ${f.path}`) }])));
    await daemon(dir, { MEMD_EMBEDDER: "none", MEMD_HF_ENDPOINT: hub.url });
    const out = await runCli(dir, ["models", "pull", model.name]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/config\.json at 751bff37182d has SHA-256 \w+, not the pinned 7135149f/);
    expect(hub.requests.map((r) => r.path)).toEqual([`/${model.repository}/resolve/${model.revision}/config.json`]);
    expect(JSON.parse((await runCli(dir, ["models", "--json"])).stdout).models[0].installed).toBe(false);
  });

  it("says an unknown model's name is unknown and which it can pull", async () => {
    const dir = home();
    await daemon(dir, { MEMD_EMBEDDER: "none" });
    const out = await runCli(dir, ["models", "pull", "gpt-5"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/knows no model "gpt-5"; it can pull all-minilm-l6-v2, bge-small-en-v1.5/);
  });
});
