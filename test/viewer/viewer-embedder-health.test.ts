// The viewer's Health page in a real browser (Debian's Chromium, as viewer-browser.test.ts) while
// the embedder's model fails to load: a tiny ONNX export whose graph file is broken, then put right.
import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { writeEncoderModel } from "../../bench/onnx-encoder-model.js";
import { readOnnxModelDir } from "../../daemon/src/embed/onnx-model-dir.js";
import { EmbedderModelState } from "../../gen/memd/v1/memory_service_pb.js";
import { refusedUrl } from "../embed/local-http-server.js";
import { freePort, makeHome, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { describeUnless } from "../helpers/skip-unless.js";
import { chromiumMissing, launchChromium } from "./viewer-harness.js";

describeUnless(chromiumMissing, "the viewer's Health page when the embedder's model does not load", () => {
  let home: string;
  let daemon: TestDaemon;
  let browser: Browser;
  let port: number;
  let modelFile: string;
  let graph: Buffer;

  beforeAll(async () => {
    home = makeHome();
    const model = path.join(home, "tiny-encoder");
    writeEncoderModel(model, { layers: 1, hidden: 16, heads: 2, intermediate: 32, maxPositions: 64, quantized: true, vocabulary: ["webhook", "retries"] }, 3);
    modelFile = readOnnxModelDir(model).modelFile;
    graph = fs.readFileSync(modelFile);
    fs.writeFileSync(modelFile, "not a model");
    port = await freePort();
    daemon = await spawnDaemon({
      home,
      args: ["--listen", `127.0.0.1:${port}`],
      env: { MEMD_EMBEDDER: "onnx", MEMD_ONNX_MODEL: model, OLLAMA_HOST: await refusedUrl() },
    });
    await daemon.clients.memory.save({ content: "webhook retries are capped at five", project: "api" });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it("says the model failed to load and why, then that it is in memory once a retry loads it", async () => {
    await expect.poll(async () => (await daemon.clients.admin.health({})).health?.embedder?.modelState, { timeout: 30_000 }).toBe(EmbedderModelState.FAILED);
    const page = await (await browser.newContext({ viewport: { width: 1000, height: 900 }, colorScheme: "light" })).newPage();
    await page.goto((await daemon.clients.viewer.openViewer({})).url);
    // Signed in once the page has heard from the daemon: leaving before would drop the sign-in (a loaded machine showed it).
    await page.waitForFunction(() => performance.getEntriesByName("memd:usable").length > 0);
    await page.goto(`http://127.0.0.1:${port}/ui/#/health`);
    const embedder = page.getByRole("region", { name: "Health" }).getByRole("region", { name: "Embedder" });
    // Loads the page again and reads the Embedder section, or the whole page when the section is not
    // drawn in time (a loaded machine, or a call the page reports as failed): the poll then tries again
    // and, if it gives up, shows what the page said instead.
    const readEmbedder = async (): Promise<string> => {
      await page.reload();
      const drawn = await embedder.waitFor({ timeout: 10_000 }).then(() => true, () => false);
      return (drawn ? await embedder.textContent() : await page.locator("body").textContent()) ?? "";
    };
    // The daemon tries the model again (1 s, 2 s, 4 s...), and the page shows the state it read:
    // "loading" while a retry runs. Read the page again until it shows a failed load.
    let shown = "";
    await expect
      .poll(async () => (shown = await readEmbedder()), { timeout: 60_000 })
      .toMatch(/model in memoryno: the last (load|\d+ loads) failed; tried again soon/);
    expect(shown).toMatch(/load errorONNX Runtime cannot load .*model\.onnx/);

    fs.writeFileSync(modelFile, graph);
    // The first memory's retries wait longer each time (1 s, 2 s, 4 s...); a new memory is embedded,
    // and so the model loaded, at once.
    await daemon.clients.memory.save({ content: "the retry wait doubles up to five minutes", project: "api" });
    await expect.poll(async () => (await daemon.clients.admin.health({})).health?.embedder?.modelState, { timeout: 30_000 }).toBe(EmbedderModelState.LOADED);
    await expect
      .poll(readEmbedder, { timeout: 60_000 })
      .toMatch(/model in memoryyesload error-/);
    await page.context().close();
  }, 180_000);
});
