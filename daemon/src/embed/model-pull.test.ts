import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeEncoderModel } from "../../../bench/onnx-encoder-model.js";
import { type FakeHub, type FakeHubFile, startFakeHub } from "../../../test/embed/fake-hub.js";
import type { KnownModel } from "./known-models.js";
import { INSTALLED_MARKER, isInstalled, pullModel } from "./model-pull.js";

const REVISION = "0123456789abcdef0123456789abcdef01234567";
let root: string;
let hub: FakeHub | undefined;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "memd-pull-"));
});
afterEach(async () => {
  await hub?.close();
  hub = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});

/** A tiny model written by the test, served by a fake hub, and a registry entry pinning its files. */
async function served(tamper: (files: Map<string, FakeHubFile>) => void = () => undefined): Promise<{ model: KnownModel; files: Map<string, FakeHubFile> }> {
  const source = path.join(root, "source");
  writeEncoderModel(source, { layers: 1, hidden: 8, heads: 2, intermediate: 16, vocabulary: ["memd"], maxPositions: 32, quantized: true }, 3);
  const paths = ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"];
  const bodies = paths.map((p) => fs.readFileSync(path.join(source, p)));
  const model: KnownModel = {
    name: "tiny", repository: "memd-test/tiny", revision: REVISION, model: "onnx/model.onnx", pooling: "mean",
    prefixes: { query: "", document: "" }, dimensions: 8, maxTokens: 32, summary: "a test model",
    files: paths.map((p, i) => ({ path: p, sha256: crypto.createHash("sha256").update(bodies[i] as Buffer).digest("hex") })),
  };
  const files = new Map(paths.map((p, i) => [`/memd-test/tiny/resolve/${REVISION}/${p}`, { body: bodies[i] as Buffer }]));
  tamper(files);
  hub = await startFakeHub(files);
  return { model, files };
}

const modelsDir = () => path.join(root, "home", "models");

describe("pullModel, from a local server that speaks the hub's file URLs", () => {
  it("fetches every pinned file at the pinned revision and counts the model installed only once all are in", async () => {
    const { model } = await served();
    const seen: number[] = [];
    const dir = await pullModel(model, { modelsDir: modelsDir(), hub: hub?.url as string, progress: (p) => seen.push(p.doneBytes) });
    expect(dir).toBe(path.join(modelsDir(), "tiny"));
    expect(fs.readFileSync(path.join(dir, "onnx/model.onnx"))).toEqual(fs.readFileSync(path.join(root, "source/onnx/model.onnx")));
    expect(hub?.requests.map((r) => r.path)).toEqual(model.files.map((f) => `/memd-test/tiny/resolve/${REVISION}/${f.path}`));
    expect(isInstalled(modelsDir(), model)).toBe(true);
    expect(seen.at(-1)).toBe(model.files.reduce((n, f) => n + fs.statSync(path.join(dir, f.path)).size, 0));
  });

  it("refuses a file that does not match its pin, deletes it, and leaves the model not installed", async () => {
    const { model } = await served((files) => {
      const config = files.get(`/memd-test/tiny/resolve/${REVISION}/config.json`) as FakeHubFile;
      config.body = Buffer.from('{"hidden_size": 8, "tampered": true}');
    });
    await expect(pullModel(model, { modelsDir: modelsDir(), hub: hub?.url as string })).rejects.toMatchObject({
      name: "ModelPullError", retryable: false, message: /config\.json at 0123456789ab has SHA-256 \w+, not the pinned/,
    });
    expect(fs.readdirSync(path.join(modelsDir(), "tiny"))).not.toContain("config.json.part");
    expect(isInstalled(modelsDir(), model)).toBe(false);
  });

  it("resumes a download that broke off with a range request from where it stopped", async () => {
    const { model } = await served((files) => {
      (files.get(`/memd-test/tiny/resolve/${REVISION}/onnx/model.onnx`) as FakeHubFile).cutAfter = 1000;
    });
    await expect(pullModel(model, { modelsDir: modelsDir(), hub: hub?.url as string })).rejects.toMatchObject({ retryable: true, message: /pull again to resume/ });
    expect(fs.statSync(path.join(modelsDir(), "tiny/onnx/model.onnx.part")).size).toBe(1000);
    const progress: number[] = [];
    await pullModel(model, { modelsDir: modelsDir(), hub: hub?.url as string, progress: (p) => progress.push(p.resumedBytes) });
    const model2 = hub?.requests.filter((r) => r.path.endsWith("model.onnx")) ?? [];
    expect(model2.map((r) => r.range)).toEqual([undefined, "bytes=1000-"]);
    expect(isInstalled(modelsDir(), model)).toBe(true);
    // The three small files verified the first time are not fetched again.
    expect(hub?.requests.filter((r) => r.path.endsWith("/config.json"))).toHaveLength(1);
    expect(progress.at(-1)).toBeGreaterThanOrEqual(1000);
  });

  it("starts a file over when the server ignores the range", async () => {
    const { model } = await served((files) => {
      const onnx = files.get(`/memd-test/tiny/resolve/${REVISION}/onnx/model.onnx`) as FakeHubFile;
      onnx.cutAfter = 500;
      onnx.ignoreRange = true;
    });
    await expect(pullModel(model, { modelsDir: modelsDir(), hub: hub?.url as string })).rejects.toMatchObject({ retryable: true });
    await pullModel(model, { modelsDir: modelsDir(), hub: hub?.url as string });
    expect(fs.readFileSync(path.join(modelsDir(), "tiny/onnx/model.onnx"))).toEqual(fs.readFileSync(path.join(root, "source/onnx/model.onnx")));
  });

  it("says which address it could not reach, retryably", async () => {
    const { model } = await served();
    const closed = hub?.url as string;
    await hub?.close();
    hub = undefined;
    await expect(pullModel(model, { modelsDir: modelsDir(), hub: closed })).rejects.toMatchObject({ retryable: true, message: new RegExp(`cannot reach ${closed}`) });
    expect(fs.existsSync(path.join(modelsDir(), "tiny", INSTALLED_MARKER))).toBe(false);
  });
});
