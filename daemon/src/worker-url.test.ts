import { describe, expect, it } from "vitest";
import { workerModuleUrl } from "./worker-url.js";

describe("workerModuleUrl", () => {
  it("runs the worker beside the compiled module, and the compiled twin when running TypeScript sources", () => {
    expect(workerModuleUrl("local-worker", "file:///app/dist/daemon/src/embed/local-embedder.js").href).toBe("file:///app/dist/daemon/src/embed/local-worker.js");
    expect(workerModuleUrl("local-worker", "file:///repo/daemon/src/embed/local-embedder.ts").href).toBe("file:///repo/dist/daemon/src/embed/local-worker.js");
    expect(workerModuleUrl("file-thread", "file:///home/me/daemon/src/x/daemon/src/vault/vault-writer.ts").href).toBe("file:///home/me/daemon/src/x/dist/daemon/src/vault/file-thread.js");
  });
});
