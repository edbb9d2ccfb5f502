import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBagOfWords } from "../../../bench/fake-ollama-server.js";
import { EmbeddingRuntime } from "../embed/embedding-runtime.js";
import { DEFAULT_HALF_LIVES } from "../lifecycle/half-lives.js";
import { Maintenance } from "../maintenance/maintenance.js";
import { buildMemory } from "../memory/new-memory.js";
import { openStore } from "../store/open-store.js";
import type { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { createBinaryIndex } from "../vectors/binary-index.js";
import { quantizerToBytes, trainQuantizer, untrainedQuantizer } from "../vectors/sign-quantizer.js";
import { vaultPath } from "../vault/file-name.js";
import { maxVaultFileBytes } from "../vault/vault-files.js";
import { VaultWriter } from "../vault/vault-writer.js";

const NOW = Date.UTC(2026, 11, 3);
const DIMENSIONS = 64;
const logger = pino({ level: "silent" });
/** Long enough for a loaded machine; a worker that is never woken fails it, since none polls. */
const WOKEN = { timeout: 20_000 };

let dir: string;
let store: SqliteStore;
let runtime: EmbeddingRuntime;
let writer: VaultWriter;
let maintenance: Maintenance;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-write-path-"));
  store = openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now: () => NOW });
  store.vault.configure(path.join(dir, "vault"));
  const embed = createBagOfWords(DIMENSIONS);
  // The workers as the daemon wires them: each told by the store's change feed, nothing else.
  runtime = await EmbeddingRuntime.start({
    vectorStore: store.vectors,
    changes: store.changes,
    admits: (filter) => store.admits(filter),
    embedder: { space: { provider: "test", model: "bag-of-words", dimensions: DIMENSIONS }, maxInputChars: 10_000, embed: async (texts) => texts.map(embed), close: async () => undefined },
    reason: "test",
    createIndex: (space, exactVectors) => createBinaryIndex({ quantizer: untrainedQuantizer(space.dimensions), exactVectors }),
    trainQuantizer: (sample) => quantizerToBytes(trainQuantizer(sample)),
    logger,
    now: () => NOW,
    batchDelayMs: 0,
  });
  writer = new VaultWriter({ store, vault: store.vault, changes: store.changes, dir: path.join(dir, "vault"), maxFileBytes: maxVaultFileBytes(65_536), logger });
  writer.start();
  maintenance = new Maintenance({
    store, changes: store.changes, embeddings: runtime, logger, now: () => NOW, newId: () => "01JZZZZZZZZZZZZZZZZZZZZZZZ", halfLives: DEFAULT_HALF_LIVES, everySaves: 1,
  });
  maintenance.start();
});

afterEach(async () => {
  await maintenance.stop();
  await writer.stop();
  await runtime.close();
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a new write path", () => {
  it("needs no call to wake a worker: a memory a store method wrote directly is embedded, written to the vault and counted by maintenance", async () => {
    const memory = buildMemory({ content: "The billing webhook retries with an idempotency key", project: "billing" }, "01JAAAAAAAAAAAAAAAAAAAAAAA", NOW, { maxContentBytes: 65_536 });
    // No service, no notify: only the store's own method, as a write path added tomorrow would.
    const seq = store.insert(memory, { at: NOW, action: "created", sessionId: "", detail: "" });

    await expect.poll(() => runtime.vectorsOf([seq]).size, WOKEN).toBe(1);
    await expect.poll(() => store.vault.fileOf(memory.id)?.path, WOKEN).toBe(vaultPath(memory));
    expect(fs.readFileSync(path.join(dir, "vault", vaultPath(memory)), "utf8")).toContain("The billing webhook retries with an idempotency key");
    await expect.poll(() => maintenance.lastRun()?.trigger, WOKEN).toBe("saves");
  });
});
