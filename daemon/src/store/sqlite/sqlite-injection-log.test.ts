import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NewInjection } from "../../injections/injection.js";
import { DAY_MS } from "../../lifecycle/half-lives.js";
import { buildMemory } from "../../memory/new-memory.js";
import type { SqliteStore } from "./sqlite-store.js";
import { openStore } from "../open-store.js";

const DAY1 = Date.UTC(2026, 10, 28, 9);
const DAY2 = DAY1 + DAY_MS;
let dir: string;
let store: SqliteStore;

function injection(extra: Partial<NewInjection> = {}): NewInjection {
  return {
    at: DAY1,
    sessionId: "s-1",
    agent: "claude-code",
    via: "UserPromptSubmit",
    kind: "pointers",
    project: "acme-api",
    prompt: "how do we rotate the webhook secret",
    memories: [{ memoryId: "01JMEMORY00000000000000001", kind: "procedure", line: "Rotate with make rotate", score: 0.8, why: "shares rotate, webhook" }],
    text: "memd has memories...",
    tokens: 42,
    ...extra,
  };
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-injections-"));
  store = openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now: () => DAY2 });
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the injection record", () => {
  it("keeps each injection with its memories in order, newest first, and filters by session, agent, time and emptiness", () => {
    const log = store.injectionLog;
    log.add([
      injection({ memories: [
        { memoryId: "01JMEMORY00000000000000001", kind: "procedure", line: "first", score: 0.9, why: "a" },
        { memoryId: "01JMEMORY00000000000000002", kind: "fact", line: "second", score: 0.7, why: "b" },
      ] }),
      injection({ at: DAY1 + 1000, memories: [], text: "", tokens: 0 }),
      injection({ at: DAY2, sessionId: "s-2", agent: "codex", kind: "briefing", via: "SessionStart", prompt: "" }),
    ]);
    const all = log.list({ onlyInjected: false, limit: 10 });
    expect(all.map((r) => [r.sessionId, r.kind, r.tokens])).toEqual([["s-2", "briefing", 42], ["s-1", "pointers", 0], ["s-1", "pointers", 42]]);
    expect(all[2]?.memories.map((m) => [m.line, m.kind, m.score, m.why])).toEqual([["first", "procedure", 0.9, "a"], ["second", "fact", 0.7, "b"]]);
    expect(log.list({ sessionId: "s-1", onlyInjected: true, limit: 10 }).map((r) => r.at)).toEqual([DAY1]);
    expect(log.list({ agent: "codex", onlyInjected: false, limit: 10 })).toHaveLength(1);
    expect(log.list({ since: DAY1 + 1, until: DAY2, onlyInjected: false, limit: 10 }).map((r) => r.at)).toEqual([DAY1 + 1000]);
    const [newest] = all;
    expect(log.list({ beforeId: newest?.id ?? 0, onlyInjected: false, limit: 1 }).map((r) => r.at)).toEqual([DAY1 + 1000]);
  });

  it("totals each UTC day per agent, counting the prompts that got nothing", () => {
    store.injectionLog.add([
      injection(),
      injection({ memories: [], text: "", tokens: 0 }),
      injection({ kind: "briefing", tokens: 100 }),
      injection({ at: DAY2, kind: "recall", via: "memory_search", tokens: 8 }),
      injection({ at: DAY2, agent: "gemini", tokens: 5 }),
    ]);
    expect(store.injectionLog.totals({ since: DAY1 - DAY_MS })).toEqual([
      { day: "2026-11-29", agent: "claude-code", injections: 1, tokens: 8, briefings: 0, prompts: 0, emptyPrompts: 0, recalls: 1 },
      { day: "2026-11-29", agent: "gemini", injections: 1, tokens: 5, briefings: 0, prompts: 1, emptyPrompts: 0, recalls: 0 },
      { day: "2026-11-28", agent: "claude-code", injections: 2, tokens: 142, briefings: 1, prompts: 2, emptyPrompts: 1, recalls: 0 },
    ]);
    expect(store.injectionLog.totals({ since: DAY2 - 1, agent: "gemini" })).toHaveLength(1);
  });

  it("lists sessions by their last record, with the agent and project of that record", () => {
    store.injectionLog.add([
      injection({ sessionId: "a", project: "old" }),
      injection({ sessionId: "b", at: DAY1 + 5 }),
      injection({ sessionId: "a", at: DAY2, project: "new", memories: [], text: "", tokens: 0 }),
    ]);
    expect(store.injectionLog.sessions({ limit: 10 })).toEqual([
      { sessionId: "a", agent: "claude-code", project: "new", firstAt: DAY1, lastAt: DAY2, injections: 1, tokens: 42, prompts: 2, emptyPrompts: 1 },
      { sessionId: "b", agent: "claude-code", project: "acme-api", firstAt: DAY1 + 5, lastAt: DAY1 + 5, injections: 1, tokens: 42, prompts: 1, emptyPrompts: 0 },
    ]);
    expect(store.injectionLog.sessions({ since: DAY2, limit: 10 }).map((s) => s.sessionId)).toEqual(["a"]);
  });

  it("tallies how often a memory was injected up to a time, and where last", () => {
    const id = "01JMEMORY00000000000000001";
    store.injectionLog.add([injection(), injection({ at: DAY1 + 10, sessionId: "s-9", agent: "codex" }), injection({ at: DAY2, sessionId: "s-late" })]);
    expect(store.injectionLog.tallies([id, "01JNEVERINJECTED0000000000"], DAY1 + 10)).toEqual(
      new Map([[id, { memoryId: id, count: 2, lastAt: DAY1 + 10, lastSessionId: "s-9", lastAgent: "codex" }]]),
    );
  });

  it("prunes records older than the cut-off, then the oldest beyond the row cap, with their memories", () => {
    store.injectionLog.add([injection({ at: DAY1 - 10 * DAY_MS }), injection({ at: DAY1 }), injection({ at: DAY1 + 1 }), injection({ at: DAY2 })]);
    expect(store.injectionLog.prune(DAY1 - DAY_MS, 2)).toBe(2);
    expect(store.injectionLog.list({ onlyInjected: false, limit: 10 }).map((r) => r.at)).toEqual([DAY2, DAY1 + 1]);
    expect(store.injectionLog.tallies(["01JMEMORY00000000000000001"], DAY2).get("01JMEMORY00000000000000001")?.count).toBe(2);
    expect(store.injectionLog.prune(DAY1 - DAY_MS, 2)).toBe(0);
  });

  it("forgets a purged memory, and the text of every injection that carried it", () => {
    const memory = buildMemory({ content: "The old signing secret lives in vault path kv/shop", project: "acme-api" }, "01JPURGED00000000000000000", DAY1, { maxContentBytes: 65536 });
    store.insert({ ...memory, status: "archived" });
    store.injectionLog.add([
      injection({ memories: [{ memoryId: memory.id, kind: "fact", line: memory.content, score: 1, why: "x" }], text: memory.content }),
      injection({ text: "another memory's pointer" }),
    ]);
    store.purgeArchived(path.join(dir, "backup.db"));
    const [other, purged] = store.injectionLog.list({ onlyInjected: false, limit: 10 });
    expect([purged?.memories, purged?.text]).toEqual([[], ""]);
    expect(other?.text).toBe("another memory's pointer");
  });
});
