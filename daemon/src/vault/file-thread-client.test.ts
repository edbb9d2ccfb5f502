import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileThread } from "./file-thread-client.js";
import type { WriteTask } from "./file-writing.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-file-thread-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const at = Date.parse("2026-12-02T09:00:00.000Z");
const ID = "01JZ4TG8P0X3M9QK5RDWN7B2HC";
const task: WriteTask = {
  memory: {
    id: ID, content: "Use Stripe.", kind: "decision", project: "shop", problem: "", solution: "", concepts: [], files: [], tags: [],
    confidence: 0.8, provenance: "save", tier: "regular", status: "active", pinned: false, importance: 3, valence: 0, intensity: 0,
    sessionId: "", sourceAgent: "claude-code", createdAt: at, updatedAt: at, lastAccessedAt: null, expiresAt: null, reviewAt: null,
    accessCount: 0, supersedes: "", supersededBy: "", archiveReason: "", invalidAt: null, author: "", editedBy: "", viaTeam: "",
  },
  history: [], links: { supersedes: null, supersededBy: null }, record: null,
  wanted: "shop/decision/use-stripe.md", fallback: "shop/decision/use-stripe-x.md", wantedHolder: null,
};

/** A stand-in thread that stops with exit code 3 the first time it is started in `dir`, and answers every batch with no outcomes after. */
function crashingOnceThread(): URL {
  const file = path.join(dir, "crashing-once.mjs");
  fs.writeFileSync(
    file,
    `import fs from "node:fs"; import { parentPort } from "node:worker_threads";
     const marker = ${JSON.stringify(path.join(dir, "started-once"))};
     if (!fs.existsSync(marker)) { fs.writeFileSync(marker, ""); process.exit(3); }
     parentPort.on("message", (m) => { if (m.type === "write") parentPort.postMessage({ type: "written", id: m.id, outcomes: [] }); });`,
  );
  return pathToFileURL(file);
}

describe("FileThread", () => {
  it("writes a batch in its thread, and removes the file once told to, in the order sent", async () => {
    const thread = new FileThread({ dir, maxFileBytes: 1 << 20 });
    const [outcome] = await thread.write([task]);
    expect(outcome?.kind).toBe("written");
    const file = outcome?.kind === "written" ? outcome.file : null;
    expect(fs.existsSync(path.join(dir, "shop/decision/use-stripe.md"))).toBe(true);
    thread.remove(file ? [file] : []);
    await thread.close();
    expect(fs.existsSync(path.join(dir, "shop/decision/use-stripe.md"))).toBe(false);
  });

  it("fails the batch of a thread that stops, and starts a new thread for the next batch", async () => {
    const thread = new FileThread({ dir, maxFileBytes: 1 << 20 }, crashingOnceThread());
    await expect(thread.write([task])).rejects.toThrow("the vault's file thread stopped (exit code 3)");
    await expect(thread.write([task])).resolves.toEqual([]);
    await thread.close();
  });
});
