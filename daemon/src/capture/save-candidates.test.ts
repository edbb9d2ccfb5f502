import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monotonicFactory } from "ulid";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildMemory } from "../memory/new-memory.js";
import type { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { openStore } from "../store/open-store.js";
import { type CaptureCandidate, candidate } from "./candidate.js";
import { MAX_STAGED_PER_SESSION } from "./extract-candidates.js";
import { type SaveContext, saveCandidates, SWEEP_TAG } from "./save-candidates.js";

const NOW = Date.UTC(2026, 9, 14);
const limits = { maxContentBytes: 65536 };
let dir: string;
let store: SqliteStore;
const ulid = monotonicFactory();

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-capture-"));
  store = openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now: () => NOW });
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function context(sessionId: string, now = NOW): SaveContext {
  return { store, newId: () => ulid(now), now, limits, project: "acme-api", sessionId, sourceAgent: "claude-code" };
}

const preference = candidate({ kind: "preference", content: "Always use pnpm in this repo.", source: "user", line: 3, reason: "r" });
const decision = candidate({ kind: "decision", content: "Go with jose, not jsonwebtoken: it runs on Workers.", source: "user", line: 14, reason: "r" });
const decisions = (n: number, prefix = "Decision") =>
  Array.from({ length: n }, (_, i) => candidate({ kind: "decision", content: `${prefix} ${i}: use tool ${i}, not the other one.`, source: "user", line: i, reason: "r" }));
const all = () => store.list({ kinds: [], statuses: [] }, { limit: 100 });

describe("saveCandidates", () => {
  it("saves what the user stated as active and what was inferred as staged, tagged as swept", () => {
    const result = saveCandidates([preference, decision], context("s-1"));
    expect(result.captured.map((c) => c.outcome)).toEqual(["created", "created"]);
    const [pref, dec] = result.captured.map((c) => c.memory);
    expect(pref).toMatchObject({ kind: "preference", status: "active", provenance: "human", sessionId: "s-1", sourceAgent: "claude-code", tags: [SWEEP_TAG] });
    expect(dec).toMatchObject({ kind: "decision", status: "staged", provenance: "distilled", confidence: 0.3 });
  });

  it("changes nothing when the same session is swept again, not even a reinforcement", () => {
    saveCandidates([preference, decision], context("s-1"));
    const before = all();
    const again = saveCandidates([preference, decision], context("s-1", NOW + 60_000));
    expect(again.captured.map((c) => c.outcome)).toEqual(["already-saved", "already-saved"]);
    expect(all()).toEqual(before);
    expect(store.events(before.map((m) => m.id)).map((e) => e.action)).toEqual(["created", "created"]);
  });

  it("does not save again what the agent already saved in the session, even once archived", () => {
    const saved = buildMemory({ content: decision.content, kind: "decision", project: "acme-api", sessionId: "s-1", provenance: "distilled" }, ulid(NOW), NOW, limits);
    store.insert({ ...saved, status: "archived", archiveReason: "rejected" });
    const result = saveCandidates([decision], context("s-1"));
    expect(result.captured[0]).toMatchObject({ outcome: "already-saved", memory: { id: saved.id } });
    expect(all()).toHaveLength(1);
  });

  it("stages at most five inferred memories per session, across sweeps, and leaves preferences out of that cap", () => {
    const first = saveCandidates([...decisions(MAX_STAGED_PER_SESSION + 2), preference], context("s-1"));
    expect(first.captured.filter((c) => c.outcome === "created")).toHaveLength(MAX_STAGED_PER_SESSION + 1);
    expect(first.overLimit).toBe(2);
    const resumed = saveCandidates(decisions(2, "Later"), context("s-1", NOW + 60_000));
    expect(resumed.captured).toEqual([]);
    expect(resumed.overLimit).toBe(2);
    expect(all().filter((m) => m.status === "staged")).toHaveLength(MAX_STAGED_PER_SESSION);
  });

  it("promotes a staged memory when another session says the same thing", () => {
    const [staged] = saveCandidates([decision], context("s-1")).captured;
    const other = saveCandidates([decision], context("s-2", NOW + 60_000));
    expect(other.captured[0]).toMatchObject({ outcome: "merged", memory: { id: staged?.memory.id, status: "active" } });
    expect(all()).toHaveLength(1);
  });

  it("counts an invalid candidate and saves the rest", () => {
    const bad: CaptureCandidate = { ...decision, content: "Use X, not Y: Z.", concepts: ["x".repeat(600)] };
    const result = saveCandidates([bad, preference], context("s-1"));
    expect(result.invalid).toBe(1);
    expect(result.captured.map((c) => c.memory.kind)).toEqual(["preference"]);
  });
});
