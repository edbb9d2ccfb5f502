import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { monotonicFactory } from "ulid";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContradictionWatch } from "../contradictions/contradiction-watch.js";
import { FailedPreconditionError, InvalidInputError } from "../errors.js";
import { openStore } from "../store/open-store.js";
import type { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { archiveOnRequest, restoreArchived } from "./archive-memory.js";
import { insertChecked } from "./insert-checked.js";
import { promoteStaged, rejectStaged } from "./review-staged.js";
import { checkpointMemory, saveMemory, type SavePorts } from "./save-memory.js";
import { supersedeClaim } from "./supersede-memory.js";
import { updateMemory } from "./update-memory.js";
import { buildMemory } from "../memory/new-memory.js";

const NOW = Date.UTC(2026, 11, 3);
const limits = { maxContentBytes: 65536 };
const ulid = monotonicFactory();
let dir: string;
let store: SqliteStore;
let watch: ContradictionWatch;
let ports: SavePorts;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-commands-"));
  store = openStore({ file: path.join(dir, "memd.db"), backupDir: path.join(dir, "backups"), now: () => NOW });
  watch = new ContradictionWatch({ store, judge: null, logger: pino({ level: "silent" }), now: () => NOW });
  ports = { store, contradictions: watch, embeddings: null, newId: () => ulid(NOW), limits };
});
afterEach(async () => {
  await watch.close();
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const save = (content: string, extra: Record<string, unknown> = {}) => saveMemory(ports, { content, project: "acme", ...extra }, NOW, false);

describe("saveMemory", () => {
  it("stores a new memory with its created entry, and merges an exact repeat into it", async () => {
    const first = await save("Builds run with pnpm.");
    expect(first).toMatchObject({ mergedInto: null, vectorReady: false, contradictions: [] });
    expect(store.events([first.memory.id]).map((e) => e.action)).toEqual(["created"]);
    const again = await save("builds run with pnpm");
    expect(again.mergedInto).toBe(first.memory.id);
    expect(again.memory.id).toBe(first.memory.id);
  });

  it("records the active memory a save likely contradicts, keeping the save active", async () => {
    const clerk = await save("Auth is Clerk, not custom JWT.", { kind: "decision" });
    const auth0 = await save("Auth moved to Auth0 last sprint; Clerk's pricing didn't work for us.", { kind: "decision" });
    expect(auth0.contradictions.map((c) => c.otherId)).toEqual([clerk.memory.id]);
    expect(store.get(auth0.memory.id)?.status).toBe("active");
  });
});

describe("checkpointMemory", () => {
  it("stores a checkpoint as it is, with provenance checkpoint and the detail checkpoint", () => {
    const input = { content: "Moved the deploy to Fly.", project: "acme", kind: "episode" as const, sessionId: "s-1" };
    const first = checkpointMemory(ports, input, NOW);
    const second = checkpointMemory(ports, input, NOW);
    expect(second.memory.id).not.toBe(first.memory.id);
    expect(first.memory.provenance).toBe("checkpoint");
    expect(store.events([first.memory.id])).toMatchObject([{ action: "created", detail: "checkpoint", sessionId: "s-1" }]);
  });
});

describe("insertChecked", () => {
  it("stages a memory that likely contradicts an active one when asked to", () => {
    const clerk = buildMemory({ content: "Auth is Clerk, not custom JWT.", kind: "decision", project: "acme" }, ulid(NOW), NOW, limits);
    insertChecked(store, watch, clerk, { detail: "", via: "save" });
    const auth0 = buildMemory({ content: "Auth moved to Auth0 last sprint; Clerk's pricing didn't work for us.", kind: "decision", project: "acme" }, ulid(NOW), NOW, limits);
    const inserted = insertChecked(store, watch, auth0, { detail: "transcript sweep", via: "sweep", stageContradicted: true });
    expect(inserted.memory.status).toBe("staged");
    expect(store.get(auth0.id)?.status).toBe("staged");
    expect(inserted.contradictions).toHaveLength(1);
  });
});

describe("updateMemory", () => {
  it("refuses a patch that changes nothing, and keeps the replaced values in the history", async () => {
    const { memory } = await save("The API listens on 8080.");
    expect(() => updateMemory(ports, memory.id, {}, NOW)).toThrow(InvalidInputError);
    const updated = updateMemory(ports, ` ${memory.id} `, { content: "The API listens on 9090." }, NOW + 1);
    expect(updated.memory.content).toBe("The API listens on 9090.");
    const entry = store.events([memory.id]).at(-1);
    expect(entry?.action).toBe("updated");
    expect(JSON.parse(entry?.detail ?? "{}")).toMatchObject({ content: "The API listens on 8080." });
  });

  it("records the active memory an update of content now contradicts, with the updated memory as the newer side, and keeps it active", async () => {
    const sentry = await save("Errors go to Sentry.", { kind: "decision" });
    const clerk = await save("Auth is Clerk, not custom JWT.", { kind: "decision" });
    const updated = updateMemory(ports, sentry.memory.id, { content: "Auth moved to Auth0 last sprint; Clerk's pricing didn't work for us." }, NOW + 1);
    expect(updated.contradictions).toMatchObject([{ memoryId: sentry.memory.id, otherId: clerk.memory.id, via: "update" }]);
    expect(updated.contradictions[0]?.newerSays).toMatch(/auth0/i);
    expect(store.contradictions.list({ settled: false, limit: 10 }).map((c) => c.id)).toEqual(updated.contradictions.map((c) => c.id));
    expect(store.get(sentry.memory.id)?.status).toBe("active");
  });

  it("reports nothing for an update of tags or confidence, though the memory contradicts one never checked against it", async () => {
    const clerk = await save("Auth is Clerk, not custom JWT.", { kind: "decision" });
    // Stored without the check, as an import waiting for its turn is: the pair is not recorded yet.
    store.insert(buildMemory({ content: "Auth moved to Auth0 last sprint.", kind: "decision", project: "acme" }, ulid(NOW), NOW, limits));
    await watch.idle();
    const updated = updateMemory(ports, clerk.memory.id, { tags: ["auth"], confidence: 0.9 }, NOW + 1);
    expect(updated.contradictions).toEqual([]);
    expect(store.contradictions.list({ settled: false, limit: 10 })).toEqual([]);
  });

  it("does not report or record again a pair already open when an update of content still contradicts", async () => {
    const clerk = await save("Auth is Clerk, not custom JWT.", { kind: "decision" });
    const auth0 = await save("Auth moved to Auth0 last sprint.", { kind: "decision" });
    expect(auth0.contradictions.map((c) => c.otherId)).toEqual([clerk.memory.id]);
    const updated = updateMemory(ports, auth0.memory.id, { content: "Auth moved to Auth0 last sprint; Clerk's pricing didn't work for us." }, NOW + 1);
    expect(updated.contradictions).toEqual([]);
    expect(store.contradictions.list({ settled: false, limit: 10 }).map((c) => c.id)).toEqual(auth0.contradictions.map((c) => c.id));
  });
});

describe("archiveOnRequest and restoreArchived", () => {
  it("keeps the first reason when archived twice, redacts it, and restores with the replaced status recorded", async () => {
    const { memory } = await save("Staging runs on Fly.");
    archiveOnRequest(store, memory.id, " moved off Fly, token ghp_abcdefghijklmnopqrstuvwxyz0123456789 ", NOW + 1);
    const twice = archiveOnRequest(store, memory.id, "second reason", NOW + 2);
    expect(twice.archiveReason).toContain("moved off Fly");
    expect(twice.archiveReason).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    const restored = restoreArchived(store, memory.id, NOW + 3);
    expect(restored).toMatchObject({ status: "active", archiveReason: "" });
    expect(JSON.parse(store.events([memory.id]).at(-1)?.detail ?? "{}")).toMatchObject({ changed: ["status"], replaced: { status: "archived" } });
    expect(() => restoreArchived(store, memory.id, NOW + 4)).toThrow(FailedPreconditionError);
  });
});

describe("promoteStaged and rejectStaged", () => {
  it("promote makes a staged memory active; reject archives one with its reason; neither takes an active one", async () => {
    const a = await save("Use zod for config.", { provenance: "distilled" });
    const b = await save("Use yup for forms.", { provenance: "distilled" });
    expect(a.memory.status).toBe("staged");
    expect(promoteStaged(store, a.memory.id, NOW + 1).status).toBe("active");
    expect(rejectStaged(store, b.memory.id, "  not what we do ", NOW + 1)).toMatchObject({ status: "archived", archiveReason: "not what we do" });
    expect(() => promoteStaged(store, a.memory.id, NOW + 2)).toThrow(FailedPreconditionError);
    expect(store.events([a.memory.id]).map((e) => e.action)).toEqual(["created", "promoted"]);
    expect(store.events([b.memory.id]).map((e) => e.action)).toEqual(["created", "rejected"]);
  });
});

describe("supersedeClaim", () => {
  it("supersedes a claim with a new memory, and names the current claim when an outdated one is corrected", async () => {
    const { memory } = await save("The cache TTL is 60 s.");
    const correction = { content: "The cache TTL is 300 s.", reason: "raised in March", concepts: [], files: [], sessionId: "s-2", sourceAgent: "" };
    const { next, old } = supersedeClaim(store, ports, memory.id, correction, NOW + 1);
    expect(old).toMatchObject({ status: "superseded", supersededBy: next.id });
    expect(next).toMatchObject({ status: "active", supersedes: memory.id });
    expect(() => supersedeClaim(store, ports, memory.id, correction, NOW + 2)).toThrow(new RegExp(`the current claim is ${next.id}`));
  });
});
