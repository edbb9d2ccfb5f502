import fs from "node:fs";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemdClients, createSocketTransport } from "../../clients/transport/transport.js";
import { MemoryKind, MemoryStatus, Provenance, Tier } from "../../gen/memd/v1/memory_pb.js";
import { SaveRequestSchema, StringListSchema } from "../../gen/memd/v1/memory_service_pb.js";
import { removeDaemon, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawRequest } from "../helpers/raw-http.js";

let daemon: TestDaemon;

beforeAll(async () => {
  daemon = await spawnDaemon({ env: { MEMD_MAX_CONTENT_BYTES: "4096" } });
});
afterAll(() => removeDaemon(daemon));

async function codeOf(call: Promise<unknown>): Promise<{ code: Code; message: string }> {
  try {
    await call;
  } catch (error) {
    const e = ConnectError.from(error);
    return { code: e.code, message: e.rawMessage };
  }
  throw new Error("expected the call to fail");
}

/** Everything stored, for before/after comparisons around rejected requests. */
async function snapshot(): Promise<string> {
  const rows: unknown[] = [];
  for await (const res of daemon.clients.admin.export({})) rows.push(res.memory);
  return JSON.stringify(rows, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

describe("MemoryService over the Unix socket", () => {
  it("stores every field of a memory and returns it unchanged from Get", async () => {
    const { memory: saved } = await daemon.clients.memory.save({
      content: "Auth is Clerk, not custom JWT",
      kind: MemoryKind.DECISION,
      project: "acme-api",
      problem: "custom JWT code kept breaking",
      solution: "moved to Clerk",
      concepts: ["auth", "clerk"],
      files: ["src/auth/session.ts"],
      tags: ["architecture"],
      confidence: 0.8,
      provenance: Provenance.HUMAN,
      tier: Tier.CORE,
      pinned: true,
      importance: 5,
      valence: -0.5,
      intensity: 0.7,
      sessionId: "s-1",
      sourceAgent: "claude-code",
      expireTime: timestampFromMs(Date.UTC(2027, 0, 1)),
      reviewTime: timestampFromMs(Date.UTC(2036, 11, 31)),
    });
    expect(saved?.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(saved).toMatchObject({ status: MemoryStatus.ACTIVE, confidence: 0.8, tier: Tier.CORE, importance: 5 });
    const { memory: got } = await daemon.clients.memory.get({ id: saved?.id ?? "" });
    expect(got).toEqual(saved);
  });

  it("searches the named project plus global, and every project when asked", async () => {
    const save = (content: string, project: string) => daemon.clients.memory.save({ content, project });
    const mine = await save("zebrafish migration runs nightly", "proj-a");
    const global = await save("zebrafish notes are user-wide", "global");
    const other = await save("zebrafish belongs to another team", "proj-b");
    const scoped = await daemon.clients.memory.search({ query: "zebrafish", project: "proj-a" });
    expect(scoped.results.map((r) => r.memory?.id).sort()).toEqual([mine.memory?.id, global.memory?.id].sort());
    const everywhere = await daemon.clients.memory.search({ query: "zebrafish", allProjects: true });
    expect(everywhere.results.map((r) => r.memory?.id)).toContain(other.memory?.id);
  });

  it("derives the project from a working directory", async () => {
    const cwd = fs.mkdtempSync("/tmp/memd-cwd-");
    const { memory } = await daemon.clients.memory.save({ content: "plain directory memory", cwd });
    expect(memory?.project).toBe(cwd.split("/").at(-1));
    fs.rmSync(cwd, { recursive: true });
  });

  it("updates only the given fields, and can clear a list", async () => {
    const { memory } = await daemon.clients.memory.save({ content: "Postgres on 5432", project: "p", concepts: ["postgres"], tags: ["db"] });
    const id = memory?.id ?? "";
    const { memory: updated } = await daemon.clients.memory.update({
      id,
      content: "Postgres on 5433",
      tags: create(StringListSchema, { values: [] }),
    });
    expect(updated).toMatchObject({ content: "Postgres on 5433", concepts: ["postgres"], tags: [] });
    const found = await daemon.clients.memory.search({ query: "5433", project: "p" });
    expect(found.results.map((r) => r.memory?.id)).toEqual([id]);
  });

  it("archives a memory so normal search and list no longer show it", async () => {
    const { memory } = await daemon.clients.memory.save({ content: "the old quokka endpoint", project: "arch" });
    const id = memory?.id ?? "";
    const { memory: archived } = await daemon.clients.memory.archive({ id, reason: "endpoint removed" });
    expect(archived).toMatchObject({ status: MemoryStatus.ARCHIVED, archiveReason: "endpoint removed" });
    expect((await daemon.clients.memory.search({ query: "quokka", project: "arch" })).results).toEqual([]);
    expect((await daemon.clients.memory.list({ project: "arch" })).memories).toEqual([]);
    const withArchived = await daemon.clients.memory.list({ project: "arch", statuses: [MemoryStatus.ARCHIVED] });
    expect(withArchived.memories.map((m) => m.id)).toEqual([id]);
  });

  it("pages through a list newest first without gaps or repeats", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await daemon.clients.memory.save({ content: `page item ${i}`, project: "paging" })).memory?.id ?? "");
    const seen: string[] = [];
    let pageToken = "";
    do {
      const page = await daemon.clients.memory.list({ project: "paging", pageSize: 3, pageToken });
      seen.push(...page.memories.map((m) => m.id));
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
    expect(seen).toEqual([...ids].reverse());
  });

  it("turns a checkpoint into one structured episode", async () => {
    const { memory } = await daemon.clients.memory.checkpoint({
      summary: "Fixed token refresh race",
      problem: "two tabs refreshed at once",
      solution: "single-flight refresh",
      files: ["src/auth/tokens.ts"],
      concepts: ["auth", "race"],
      project: "acme-api",
    });
    expect(memory).toMatchObject({
      kind: MemoryKind.EPISODE,
      provenance: Provenance.CHECKPOINT,
      confidence: 0.65,
      problem: "two tabs refreshed at once",
      files: ["src/auth/tokens.ts"],
    });
  });

  it("answers Sync with health, the project and its counts", async () => {
    const res = await daemon.clients.memory.sync({ project: "paging", sessionId: "s-9" });
    expect(res.health?.ok).toBe(true);
    expect(res.project).toBe("paging");
    expect(res.projectActiveCount).toBe(7n);
    expect(res.projects.map((p) => p.name)).toContain("acme-api");
  });

  it("serves the same RPCs over gRPC, and Connect JSON over HTTP/1.1", async () => {
    const grpc = createMemdClients(createSocketTransport({ socketPath: daemon.socketPath, protocol: "grpc" }));
    const json = createMemdClients(createSocketTransport({ socketPath: daemon.socketPath, json: true }));
    const { memory } = await grpc.memory.save({ content: "saved over grpc", project: "wire" });
    const { memory: got } = await json.memory.get({ id: memory?.id ?? "" });
    expect(got?.content).toBe("saved over grpc");
  });

  it("answers Search as an HTTP GET because it has no side effects", async () => {
    await daemon.clients.memory.save({ content: "okapi lives here", project: "get" });
    const message = encodeURIComponent(JSON.stringify({ query: "okapi", project: "get" }));
    const res = await rawRequest({
      socketPath: daemon.socketPath,
      method: "GET",
      path: `/memd.v1.MemoryService/Search?connect=v1&encoding=json&message=${message}`,
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).results[0].memory.content).toBe("okapi lives here");
  });
});

describe("bad input gets a clear error and changes nothing", () => {
  const cases: [string, () => Promise<unknown>, Code, RegExp][] = [
    ["empty content", () => daemon.clients.memory.save({ content: "   " }), Code.InvalidArgument, /content is empty/],
    ["content over the size limit", () => daemon.clients.memory.save({ content: "x".repeat(5000) }), Code.ResourceExhausted, /over the limit of 4096/],
    ["an unknown kind number", () => daemon.clients.memory.save({ content: "x", kind: 99 as MemoryKind }), Code.InvalidArgument, /kind has unknown value 99/],
    ["an unknown status filter", () => daemon.clients.memory.list({ statuses: [42 as MemoryStatus] }), Code.InvalidArgument, /statuses has unknown value 42/],
    ["confidence above 1", () => daemon.clients.memory.save({ content: "x", confidence: 1.5 }), Code.InvalidArgument, /confidence must be between 0 and 1/],
    ["importance of 0", () => daemon.clients.memory.save({ content: "x", importance: 0 }), Code.InvalidArgument, /importance must be a whole number from 1 to 5/],
    ["importance of 6 in an update", () => daemon.clients.memory.update({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV", importance: 6 }), Code.NotFound, /no memory has id/],
    ["Get of an unknown id", () => daemon.clients.memory.get({ id: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }), Code.NotFound, /no memory has id 01ARZ3NDEKTSV4RRFFQ69G5FAV/],
    ["Archive of an unknown id", () => daemon.clients.memory.archive({ id: "nope" }), Code.NotFound, /no memory has id nope/],
    ["an empty id", () => daemon.clients.memory.get({ id: "" }), Code.InvalidArgument, /id is empty/],
    ["an update that changes nothing", () => daemon.clients.memory.update({ id: "nope" }), Code.InvalidArgument, /changes nothing/],
    ["an empty query", () => daemon.clients.memory.search({ query: " \t" }), Code.InvalidArgument, /query is empty/],
    ["a 100 KiB query", () => daemon.clients.memory.search({ query: "word ".repeat(20_000) }), Code.InvalidArgument, /^query is 100000 bytes; at most 16384 are accepted/],
    ["a search limit of 1000", () => daemon.clients.memory.search({ query: "x", limit: 1000 }), Code.InvalidArgument, /limit must be between 1 and 100/],
    ["a forged page token", () => daemon.clients.memory.list({ pageToken: "not-a-token" }), Code.InvalidArgument, /page_token/],
    ["a relative cwd", () => daemon.clients.memory.save({ content: "x", cwd: "src/auth" }), Code.InvalidArgument, /absolute path/],
    ["an import with a non-ULID id", () => daemon.clients.admin.import({ memories: [{ id: "m001", content: "x", importance: 3 }] }), Code.InvalidArgument, /not a ULID/],
  ];

  it.each(cases)("rejects %s", async (_name, call, code, message) => {
    const before = await snapshot();
    const error = await codeOf(call());
    expect(Code[error.code]).toBe(Code[code]);
    expect(error.message).toMatch(message);
    expect(await snapshot()).toBe(before);
  });

  it("rejects importance of 6 on an existing memory and keeps it as it was", async () => {
    const { memory } = await daemon.clients.memory.save({ content: "importance check", project: "bad" });
    const before = await snapshot();
    const error = await codeOf(daemon.clients.memory.update({ id: memory?.id ?? "", importance: 6 }));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(await snapshot()).toBe(before);
  });

  it("rejects a whole import batch when one memory in it is invalid", async () => {
    const before = await snapshot();
    const good = { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV", content: "good", importance: 3, createTime: timestampFromMs(1) };
    const bad = { ...good, id: "01ARZ3NDEKTSV4RRFFQ69G5FAW", confidence: 7 };
    const error = await codeOf(daemon.clients.admin.import({ memories: [good, bad] }));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.message).toMatch(/memory #2/);
    expect(await snapshot()).toBe(before);
  });

  it.each([
    ["malformed JSON", "application/json", '{"content": "x",'],
    ["an unknown JSON field", "application/json", '{"contnet": "x"}'],
    ["an unknown enum name in JSON", "application/json", '{"content": "x", "kind": "MEMORY_KIND_BOGUS"}'],
    ["malformed protobuf", "application/proto", Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])],
  ])("answers %s with invalid_argument", async (_name, contentType, body) => {
    const before = await snapshot();
    const res = await rawRequest({
      socketPath: daemon.socketPath,
      path: "/memd.v1.MemoryService/Save",
      headers: { "content-type": contentType },
      body,
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).code).toBe("invalid_argument");
    expect(await snapshot()).toBe(before);
  });

  it("treats FTS5 syntax in a query as plain text", async () => {
    await daemon.clients.memory.save({ content: "col:value NEAR(x) quoted \"text\" -minus star*", project: "fts" });
    for (const query of ['"', "*", "NEAR(", "-", ":", 'col:value NEAR(x "text -minus star*', "AND OR NOT"]) {
      const res = await daemon.clients.memory.search({ query, project: "fts" });
      expect(Array.isArray(res.results)).toBe(true);
    }
    const hit = await daemon.clients.memory.search({ query: "col:value", project: "fts" });
    expect(hit.results).toHaveLength(1);
  });

  it("answers a search in a project nobody has used with no results rather than an error", async () => {
    const res = await daemon.clients.memory.search({ query: "anything", project: "no-such-project", excludeGlobal: true });
    expect(res.results).toEqual([]);
    expect(res.project).toBe("no-such-project");
  });

  it("keeps binary bodies of valid Saves working after all the rejections", async () => {
    const body = Buffer.from(toBinary(SaveRequestSchema, create(SaveRequestSchema, { content: "still fine", project: "bad" })));
    const res = await rawRequest({
      socketPath: daemon.socketPath,
      path: "/memd.v1.MemoryService/Save",
      headers: { "content-type": "application/proto" },
      body,
    });
    expect(res.status).toBe(200);
  });
});
