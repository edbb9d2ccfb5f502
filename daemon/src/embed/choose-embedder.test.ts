import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeEncoderModel } from "../../../bench/onnx-encoder-model.js";
import { type FakeOllamaOptions, startFakeOllama } from "../../../test/embed/fake-ollama.js";
import { type LocalServer, refusedUrl } from "../../../test/embed/local-http-server.js";
import { type ChooseEmbedderOptions, type ChosenEmbedder, chooseEmbedder, embedderForSpace } from "./choose-embedder.js";
import { type Embedder, EmbedderSetupError } from "./embedder.js";
import { KNOWN_MODELS, type KnownModel } from "./known-models.js";
import { LOCAL_SPACE } from "./local-embedder.js";
import { INSTALLED_MARKER } from "./model-pull.js";
import { isStaticModelName, loadStaticModel } from "./static-embedder.js";

const servers: LocalServer[] = [];
const embedders: Embedder[] = [];

async function ollama(options: FakeOllamaOptions = {}): Promise<string> {
  const server = await startFakeOllama(options);
  servers.push(server);
  return server.url;
}

async function choose(options: ChooseEmbedderOptions): Promise<ChosenEmbedder> {
  const chosen = await chooseEmbedder(options);
  embedders.push(chosen.embedder);
  return chosen;
}

afterEach(async () => {
  await Promise.all(embedders.splice(0).map((e) => e.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("chooseEmbedder (against a local server speaking the Ollama API)", () => {
  it("uses Ollama when it answers and has the model", async () => {
    const host = await ollama();
    const { embedder, reason } = await choose({ setting: "auto", ollama: { host } });
    expect(embedder.space).toEqual({ provider: "ollama", model: "nomic-embed-text", dimensions: 768 });
    expect(reason).toBe(`ollama at ${host} has nomic-embed-text`);
  });

  it("falls back to the static table when Ollama lacks the model, and says how to get it", async () => {
    const host = await ollama({ models: ["llama3.2:latest"] });
    const { embedder, reason } = await choose({ setting: "auto", ollama: { host } });
    expect(isStaticModelName(embedder.space.model)).toBe(true);
    expect(reason).toBe(`static: ollama at ${host} does not have nomic-embed-text (\`ollama pull nomic-embed-text\` would make memd use it)`);
  });

  it("falls back to the static table when Ollama is down", async () => {
    const host = await refusedUrl();
    const { embedder, reason } = await choose({ setting: "auto", ollama: { host } });
    expect(embedder.space).toEqual({ provider: "local", model: loadStaticModel().name, dimensions: 512 });
    expect(reason).toBe(`static: ollama not reachable at ${host} (connection refused)`);
  });

  it("falls back to the static table when Ollama does not answer the probe in time", async () => {
    const host = await ollama({ tagsHang: true });
    const { embedder, reason } = await choose({ setting: "auto", ollama: { host }, probeTimeoutMs: 100 });
    expect(embedder.space.provider).toBe("local");
    expect(reason).toMatch(/no answer within 100 ms/);
  });

  it("never picks OpenAI by itself, even with an API key at hand", async () => {
    const { embedder } = await choose({ setting: "auto", ollama: { host: await refusedUrl() }, openai: { apiKey: "sk-present" } });
    expect(embedder.space.provider).toBe("local");
  });

  it("does not send memories to an Ollama on another machine unless chosen explicitly", async () => {
    // 192.0.2.1 is reserved for documentation: nothing answers there, and nothing is sent.
    const { embedder, reason } = await choose({ setting: "auto", ollama: { host: "http://192.0.2.1:11434" } });
    expect(embedder.space.provider).toBe("local");
    expect(reason).toMatch(/not on this machine/);
  });

  it("learns the size of a model it does not know from /api/show", async () => {
    const host = await ollama({ models: ["custom-embed:latest"], dimensions: 1024 });
    const { embedder } = await choose({ setting: "auto", ollama: { host, model: "custom-embed" } });
    expect(embedder.space).toEqual({ provider: "ollama", model: "custom-embed", dimensions: 1024 });
  });

  it("lets an explicit setting win over an Ollama that has the model", async () => {
    const host = await ollama();
    const { embedder, reason } = await choose({ setting: "local", settingSource: "MEMD_EMBEDDER=local", ollama: { host } });
    expect(embedder.space.provider).toBe("local");
    expect(reason).toBe("local: chosen explicitly by MEMD_EMBEDDER=local");
  });

  it("runs the full local model, or it for memories and the static table for queries, when chosen", async () => {
    const local = await choose({ setting: "local", settingSource: "MEMD_EMBEDDER=local" });
    expect(local.embedder.space).toEqual(LOCAL_SPACE);
    const asymmetric = await choose({ setting: "asymmetric", settingSource: "MEMD_EMBEDDER=asymmetric" });
    expect(asymmetric.embedder.space).toEqual(LOCAL_SPACE);
    expect(asymmetric.reason).toBe("asymmetric (memories by the local model, queries by the static table): chosen explicitly by MEMD_EMBEDDER=asymmetric");
  });

  it("uses OpenAI when chosen explicitly with a key", async () => {
    const { embedder, reason } = await choose({ setting: "openai", settingSource: "MEMD_EMBEDDER=openai", openai: { apiKey: "sk-test" } });
    expect(embedder.space).toEqual({ provider: "openai", model: "text-embedding-3-small", dimensions: 1536 });
    expect(reason).toBe("openai: chosen explicitly by MEMD_EMBEDDER=openai");
  });

  it("explains that explicit OpenAI needs a key", async () => {
    await expect(choose({ setting: "openai", settingSource: "MEMD_EMBEDDER=openai" })).rejects.toThrow(EmbedderSetupError);
    await expect(choose({ setting: "openai", settingSource: "MEMD_EMBEDDER=openai", openai: { apiKey: "" } })).rejects.toThrow(
      /MEMD_EMBEDDER=openai chooses OpenAI embeddings, but no API key is set: set OPENAI_API_KEY/,
    );
  });

  it("keeps an explicit Ollama choice while Ollama is down, and says so", async () => {
    const host = await refusedUrl();
    const { embedder, reason } = await choose({ setting: "ollama", settingSource: "--embedder ollama", ollama: { host } });
    expect(embedder.space.provider).toBe("ollama");
    expect(reason).toBe(
      `ollama at ${host} with nomic-embed-text: chosen explicitly by --embedder ollama; not reachable right now (connection refused), embeddings wait until it answers`,
    );
  });
});

describe("embedderForSpace", () => {
  it("serves an older static space only while it is the table shipped now", async () => {
    const shipped = { provider: "local", model: loadStaticModel().name, dimensions: 512 };
    const embedder = await embedderForSpace(shipped, { setting: "ollama" });
    expect(embedder?.space).toEqual(shipped);
    await embedder?.close();
    expect(await embedderForSpace({ ...shipped, model: "universal-sentence-encoder-lite-static-00000000" }, { setting: "ollama" })).toBeNull();
  });

  it("serves an older OpenAI space only while OpenAI is still the choice", async () => {
    const space = { provider: "openai", model: "text-embedding-3-small", dimensions: 1536 };
    expect(await embedderForSpace(space, { setting: "local", openai: { apiKey: "sk-test" } })).toBeNull();
    const embedder = await embedderForSpace(space, { setting: "openai", openai: { apiKey: "sk-test" } });
    expect(embedder?.space).toEqual(space);
    await embedder?.close();
  });

  it("serves an older Ollama space only when Ollama has its model", async () => {
    const host = await ollama({ models: ["all-minilm:latest"] });
    const options: ChooseEmbedderOptions = { setting: "local", ollama: { host } };
    expect(await embedderForSpace({ provider: "ollama", model: "nomic-embed-text", dimensions: 768 }, options)).toBeNull();
    const embedder = await embedderForSpace({ provider: "ollama", model: "all-minilm", dimensions: 384 }, options);
    expect(embedder?.space).toEqual({ provider: "ollama", model: "all-minilm", dimensions: 384 });
    await embedder?.close();
  });
});

describe("chooseEmbedder with ONNX models (tiny random-weight encoders the test writes itself)", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  /** MEMD_HOME/models with all-minilm-l6-v2 installed as `memctl models pull` leaves it: its files and its record. */
  function modelsWithInstalledMiniLm(): string {
    const models = fs.mkdtempSync(path.join(os.tmpdir(), "memd-models-"));
    dirs.push(models);
    const known = KNOWN_MODELS[0] as KnownModel;
    const dir = path.join(models, known.name);
    writeEncoderModel(dir, { layers: 1, hidden: 384, heads: 2, intermediate: 16, vocabulary: ["memd"], maxPositions: 32, quantized: true }, 1);
    fs.mkdirSync(path.dirname(path.join(dir, known.model)), { recursive: true });
    fs.renameSync(path.join(dir, "onnx/model.onnx"), path.join(dir, known.model));
    fs.writeFileSync(path.join(dir, INSTALLED_MARKER), JSON.stringify({ name: known.name, revision: known.revision }));
    return models;
  }

  it("takes an installed model over the built-in one when Ollama does not answer", async () => {
    const host = await refusedUrl();
    const { embedder, reason } = await choose({ setting: "auto", ollama: { host }, onnx: { modelsDir: modelsWithInstalledMiniLm() } });
    expect(embedder.space).toEqual({ provider: "onnx", model: "all-minilm-l6-v2", dimensions: 384 });
    expect(reason).toMatch(/^onnx all-minilm-l6-v2: installed in .*; ollama not reachable/);
  });

  it("stays with the built-in model when no model is installed", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "memd-models-"));
    dirs.push(empty);
    const { embedder } = await choose({ setting: "auto", ollama: { host: await refusedUrl() }, onnx: { modelsDir: empty } });
    expect(embedder.space.provider).toBe("local");
  });

  it("refuses MEMD_ONNX_MODEL naming a known model that is not installed, saying how to install it", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "memd-models-"));
    dirs.push(empty);
    await expect(chooseEmbedder({ setting: "onnx", onnx: { modelsDir: empty, model: "bge-small-en-v1.5" } })).rejects.toThrow(
      "MEMD_ONNX_MODEL=bge-small-en-v1.5 is not installed: run `memctl models pull bge-small-en-v1.5`",
    );
  });

  it("serves an older ONNX space while its model is still installed", async () => {
    const onnx = { modelsDir: modelsWithInstalledMiniLm() };
    const embedder = await embedderForSpace({ provider: "onnx", model: "all-minilm-l6-v2", dimensions: 384 }, { setting: "local", onnx });
    expect(embedder?.space).toEqual({ provider: "onnx", model: "all-minilm-l6-v2", dimensions: 384 });
    await embedder?.close();
    expect(await embedderForSpace({ provider: "onnx", model: "bge-small-en-v1.5", dimensions: 384 }, { setting: "local", onnx })).toBeNull();
  });
});
