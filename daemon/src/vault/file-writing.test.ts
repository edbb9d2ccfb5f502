import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MemoryRecord } from "../memory/memory.js";
import { removeUnchangedFiles, writeMemoryFiles, type WriteTask } from "./file-writing.js";
import { parseMemoryFile, textHash } from "./memory-file.js";
import { VaultFiles } from "./vault-files.js";

const at = Date.parse("2026-12-02T09:00:00.000Z");

function memory(id: string, content: string): MemoryRecord {
  return {
    id, content, kind: "decision", project: "shop", problem: "", solution: "", concepts: [], files: [], tags: [],
    confidence: 0.8, provenance: "save", tier: "regular", status: "active", pinned: false, importance: 3, valence: 0,
    intensity: 0, sessionId: "", sourceAgent: "claude-code", createdAt: at, updatedAt: at, lastAccessedAt: null,
    expiresAt: null, reviewAt: null, accessCount: 0, supersedes: "", supersededBy: "", archiveReason: "", invalidAt: null, author: "", editedBy: "", viaTeam: "",
  };
}

function task(m: MemoryRecord, overrides: Partial<WriteTask> = {}): WriteTask {
  return {
    memory: m, history: [], links: { supersedes: null, supersededBy: null }, record: null,
    wanted: "shop/decision/use-stripe.md", fallback: `shop/decision/use-stripe-${m.id.toLowerCase()}.md`, wantedHolder: null, ...overrides,
  };
}

const A = "01JZ4TG8P0X3M9QK5RDWN7B2HC";
const B = "01JZ4TG8P0X3M9QK5RDWN7B2HD";
let dir: string;
let files: VaultFiles;
const read = (relative: string) => fs.readFileSync(path.join(dir, relative), "utf8");

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-file-writing-"));
  files = new VaultFiles(dir, 1 << 20);
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("writeMemoryFiles", () => {
  it("writes a new memory's file, then finds it unchanged when it is asked to write the same text again", async () => {
    const [first] = await writeMemoryFiles(files, [task(memory(A, "Use Stripe for payments."))]);
    expect(first).toEqual({ kind: "written", file: { memoryId: A, path: "shop/decision/use-stripe.md", hash: textHash(read("shop/decision/use-stripe.md")) } });
    const parsed = parseMemoryFile(read("shop/decision/use-stripe.md"));
    expect(parsed.ok && parsed.memory.content).toBe("Use Stripe for payments.");
    const record = first?.kind === "written" ? first.file : null;
    expect(await writeMemoryFiles(files, [task(memory(A, "Use Stripe for payments."), { record })])).toEqual([{ kind: "unchanged", file: record }]);
  });

  it("gives the second of two memories wanting one name in a batch the name with its whole id", async () => {
    const outcomes = await writeMemoryFiles(files, [task(memory(A, "Use Stripe.")), task(memory(B, "Use Stripe, really."))]);
    expect(outcomes.map((o) => (o.kind === "written" ? o.file.path : o.kind))).toEqual(["shop/decision/use-stripe.md", `shop/decision/use-stripe-${B.toLowerCase()}.md`]);
  });

  it("does not take a name another memory's record holds, nor a person's own file there", async () => {
    const held = await writeMemoryFiles(files, [task(memory(A, "Use Stripe."), { wantedHolder: B })]);
    expect(held[0]?.kind === "written" && held[0].file.path).toBe(`shop/decision/use-stripe-${A.toLowerCase()}.md`);
    fs.writeFileSync(path.join(dir, "shop/decision/use-stripe.md"), "my own notes\n");
    const own = await writeMemoryFiles(files, [task(memory(B, "Use Stripe."))]);
    expect(own[0]?.kind === "written" && own[0].file.path).toBe(`shop/decision/use-stripe-${B.toLowerCase()}.md`);
    expect(read("shop/decision/use-stripe.md")).toBe("my own notes\n");
  });

  it("leaves a file someone changed since memd wrote it as they wrote it, and says so", async () => {
    const [first] = await writeMemoryFiles(files, [task(memory(A, "Use Stripe."))]);
    const record = first?.kind === "written" ? first.file : null;
    fs.appendFileSync(path.join(dir, "shop/decision/use-stripe.md"), "A line of my own.\n");
    const edited = read("shop/decision/use-stripe.md");
    expect(await writeMemoryFiles(files, [task(memory(A, "Use Stripe for everything."), { record })])).toEqual([{ kind: "held", path: "shop/decision/use-stripe.md" }]);
    expect(read("shop/decision/use-stripe.md")).toBe(edited);
  });

  it("keeps the properties a person added to the file when it rewrites it, also in another folder", async () => {
    const [first] = await writeMemoryFiles(files, [task(memory(A, "Use Stripe."))]);
    const file = path.join(dir, "shop/decision/use-stripe.md");
    fs.writeFileSync(file, read("shop/decision/use-stripe.md").replace("---\n", "---\naliases:\n  - payments\n"));
    // As the watcher records a person's edit once it has read it.
    const record = first?.kind === "written" ? { ...first.file, hash: textHash(fs.readFileSync(file, "utf8")) } : null;
    const [rewritten] = await writeMemoryFiles(files, [task(memory(A, "Use Stripe for payments."), { record })]);
    expect(rewritten?.kind).toBe("written");
    expect(read("shop/decision/use-stripe.md")).toMatch(/^---\naliases:\n {2}- payments\n/);
    expect(read("shop/decision/use-stripe.md")).toContain("Use Stripe for payments.");
    const moved = rewritten?.kind === "written" ? rewritten.file : null;
    const fact = { ...memory(A, "Use Stripe for payments."), kind: "fact" as const };
    const [again] = await writeMemoryFiles(files, [task(fact, { record: moved, wanted: "shop/fact/use-stripe.md" })]);
    expect(again?.kind === "written" && again.file.path).toBe("shop/fact/use-stripe.md");
    expect(read("shop/fact/use-stripe.md")).toMatch(/^---\naliases:\n {2}- payments\n/);
  });

  it("makes a folder again that someone deleted after memd made it", async () => {
    await writeMemoryFiles(files, [task(memory(A, "Use Stripe."))]);
    fs.rmSync(path.join(dir, "shop"), { recursive: true });
    const [again] = await writeMemoryFiles(files, [task(memory(A, "Use Stripe."))]);
    expect(again?.kind).toBe("written");
    expect(fs.existsSync(path.join(dir, "shop/decision/use-stripe.md"))).toBe(true);
  });

  it("reports a file it cannot write as failed, and the rest of the batch is written", async () => {
    fs.mkdirSync(path.join(dir, "shop"));
    fs.writeFileSync(path.join(dir, "shop/decision"), "a file where the folder should be");
    const other = task(memory(B, "Ship on Fridays."), { wanted: "ops/decision/ship-on-fridays.md", fallback: "ops/decision/x.md" });
    const [blocked, written] = await writeMemoryFiles(files, [task(memory(A, "Use Stripe.")), other]);
    expect(blocked?.kind).toBe("failed");
    expect(written?.kind).toBe("written");
  });
});

describe("writeMemoryFiles and links", () => {
  it("fails a memory whose file was replaced by a link, leaving the link and the file it points to alone", async () => {
    const [first] = await writeMemoryFiles(files, [task(memory(A, "Use Stripe."))]);
    const record = first?.kind === "written" ? first.file : null;
    const outside = path.join(dir, "..", `${path.basename(dir)}-outside.md`);
    fs.writeFileSync(outside, fs.readFileSync(path.join(dir, "shop/decision/use-stripe.md")));
    const before = fs.readFileSync(outside, "utf8");
    fs.rmSync(path.join(dir, "shop/decision/use-stripe.md"));
    fs.symlinkSync(outside, path.join(dir, "shop/decision/use-stripe.md"));
    try {
      const [again] = await writeMemoryFiles(files, [task(memory(A, "Use Stripe for everything."), { record })]);
      expect(again).toEqual({ kind: "failed", message: expect.stringContaining("shop/decision/use-stripe.md is a symbolic link") });
      expect(fs.readFileSync(outside, "utf8")).toBe(before);
      expect(fs.lstatSync(path.join(dir, "shop/decision/use-stripe.md")).isSymbolicLink()).toBe(true);
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });
});

describe("writeMemoryFiles and a person's own properties", () => {
  it("redacts a secret in a person's own properties when it rewrites the file", async () => {
    const [first] = await writeMemoryFiles(files, [task(memory(A, "Use Stripe."))]);
    const file = path.join(dir, "shop/decision/use-stripe.md");
    fs.writeFileSync(file, read("shop/decision/use-stripe.md").replace("---\n", "---\naliases:\n  - stripe AKIAIOSFODNN7EXAMPLE\nnotes: password=hunter2xyz\ndb_password: Sup3rS3cretQ\n"));
    const record = first?.kind === "written" ? { ...first.file, hash: textHash(fs.readFileSync(file, "utf8")) } : null;
    const [rewritten] = await writeMemoryFiles(files, [task(memory(A, "Use Stripe for payments."), { record })]);
    expect(rewritten?.kind).toBe("written");
    const text = read("shop/decision/use-stripe.md");
    expect(text).toContain("aliases:\n  - stripe [REDACTED:aws-access-key]\n");
    expect(text).toContain("notes: password=[REDACTED:password-assignment]\n");
    expect(text).toContain("db_password: \"[REDACTED:password-assignment]\"\n");
    for (const secret of ["AKIAIOSFODNN7EXAMPLE", "hunter2xyz", "Sup3rS3cretQ"]) expect(text).not.toContain(secret);
  });
});

describe("removeUnchangedFiles", () => {
  it("removes the files memd wrote and keeps one someone changed since", async () => {
    const outcomes = await writeMemoryFiles(files, [task(memory(A, "Use Stripe.")), task(memory(B, "Ship on Fridays."), { wanted: "shop/decision/ship.md" })]);
    const records = outcomes.map((o) => (o.kind === "written" ? o.file : null)).filter((r) => r !== null);
    fs.appendFileSync(path.join(dir, "shop/decision/ship.md"), "mine\n");
    removeUnchangedFiles(files, records);
    expect(fs.existsSync(path.join(dir, "shop/decision/use-stripe.md"))).toBe(false);
    expect(read("shop/decision/ship.md")).toMatch(/mine\n$/);
  });
});
