// ChangeService.WatchChanges against a real daemon: the store's change feed, streamed after each
// commit over the Unix socket (HTTP/2) and, as the web viewer watches it, over loopback TCP
// (HTTP/1.1) with a viewer session.
import http from "node:http";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangeKind, ChangeService, RecordKind, type WatchChangesResponse } from "../../gen/memd/v1/change_service_pb.js";
import { MemoryKind, MemoryStatus, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { freePort, removeDaemon, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

/** A watch begun: its first (empty) message has come, so every later commit is in what follows. */
async function watch(stream: AsyncIterable<WatchChangesResponse>): Promise<AsyncIterator<WatchChangesResponse>> {
  const messages = stream[Symbol.asyncIterator]();
  const first = await messages.next();
  expect(first.value).toMatchObject({ changes: [], missed: false });
  return messages;
}

/** Messages from the watch until `done` says what came is enough; what came, in order. */
async function readUntil(messages: AsyncIterator<WatchChangesResponse>, done: (all: WatchChangesResponse[]) => boolean): Promise<WatchChangesResponse[]> {
  const all: WatchChangesResponse[] = [];
  while (!done(all)) {
    const next = await messages.next();
    if (next.done) throw new Error("the watch ended");
    all.push(next.value);
  }
  return all;
}

const changesOf = (all: WatchChangesResponse[]) => all.flatMap((m) => m.changes.map((c) => ({ kind: c.kind, change: c.change, memoryId: c.memoryId, project: c.project })));

/** The error a stream ended with. */
async function endOf(messages: AsyncIterator<WatchChangesResponse>): Promise<ConnectError> {
  try {
    for (;;) if ((await messages.next()).done) throw new Error("the watch ended without an error");
  } catch (error) {
    return ConnectError.from(error);
  }
}

describe("ChangeService.WatchChanges", () => {
  let daemon: TestDaemon;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    daemon = await spawnDaemon({ args: ["--listen", `127.0.0.1:${port}`] });
  });

  afterAll(async () => {
    await removeDaemon(daemon);
  });

  it("streams each committed write to a watcher: a saved memory, a staged guess and its promotion, with their history entries", async () => {
    const stop = new AbortController();
    const messages = await watch(daemon.clients.changes.watchChanges({}, { signal: stop.signal }));
    const saved = (await daemon.clients.memory.save({ content: "Payments go through Stripe Checkout.", kind: MemoryKind.DECISION, project: "shop" })).memory;
    const guess = (await daemon.clients.memory.save({ content: "The user seems to prefer squash merges.", project: "shop", provenance: Provenance.DISTILLED, sessionId: "s-1" })).memory;
    expect(guess?.status).toBe(MemoryStatus.STAGED);
    await daemon.clients.memory.promote({ id: guess?.id ?? "" });
    const memoryChanges = (all: WatchChangesResponse[]) => changesOf(all).filter((c) => c.kind === RecordKind.MEMORY);
    const all = await readUntil(messages, (so) => memoryChanges(so).length >= 3);
    stop.abort();
    expect(memoryChanges(all)).toEqual([
      { kind: RecordKind.MEMORY, change: ChangeKind.CREATED, memoryId: saved?.id, project: "shop" },
      { kind: RecordKind.MEMORY, change: ChangeKind.CREATED, memoryId: guess?.id, project: "shop" },
      { kind: RecordKind.MEMORY, change: ChangeKind.UPDATED, memoryId: guess?.id, project: "shop" },
    ]);
    const events = changesOf(all).filter((c) => c.kind === RecordKind.MEMORY_EVENT).map((c) => c.memoryId);
    expect(events).toEqual([saved?.id, guess?.id, guess?.id]);
  });

  it("streams only the kinds of record asked for", async () => {
    const stop = new AbortController();
    const messages = await watch(daemon.clients.changes.watchChanges({ kinds: [RecordKind.MEMORY_EVENT] }, { signal: stop.signal }));
    const saved = (await daemon.clients.memory.save({ content: "Refunds over 500 EUR need a second approval.", project: "shop" })).memory;
    const all = await readUntil(messages, (so) => changesOf(so).length > 0);
    stop.abort();
    expect(changesOf(all)).toEqual([{ kind: RecordKind.MEMORY_EVENT, change: ChangeKind.CREATED, memoryId: saved?.id, project: "shop" }]);
  });

  it("streams an injection memd recorded once it is stored, after the answer that made it", async () => {
    const stop = new AbortController();
    const messages = await watch(daemon.clients.changes.watchChanges({ kinds: [RecordKind.INJECTION] }, { signal: stop.signal }));
    await daemon.clients.memory.brief({ sessionId: "s-watched", sourceAgent: "claude-code", project: "shop", via: "SessionStart" });
    const all = await readUntil(messages, (so) => changesOf(so).length > 0);
    stop.abort();
    const [recorded] = (await daemon.clients.injections.listInjections({ sessionId: "s-watched" })).injections;
    expect(all.flatMap((m) => m.changes.map((c) => c.id))).toEqual([String(recorded?.id)]);
    expect(changesOf(all)).toEqual([{ kind: RecordKind.INJECTION, change: ChangeKind.CREATED, memoryId: "", project: "shop" }]);
  });

  it("refuses a kind it does not know with invalid_argument", async () => {
    const error = await endOf(daemon.clients.changes.watchChanges({ kinds: [RecordKind.MEMORY, 99 as RecordKind] })[Symbol.asyncIterator]());
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.rawMessage).toMatch(/kinds has unknown value 99; use one of memory, memory_event/);
  });

  it("lets a watcher that stopped reading miss changes instead of holding up writes, and tells it so", async () => {
    const stop = new AbortController();
    const messages = await watch(daemon.clients.changes.watchChanges({ kinds: [RecordKind.MEMORY] }, { signal: stop.signal }));
    const now = timestampNow();
    // Far past what the connection's buffers and the watch's queue (10,000 changes) hold, while the watcher reads nothing.
    const batches = 24;
    for (let b = 0; b < batches; b += 1) {
      const memories = Array.from({ length: 1000 }, (_, i) => ({
        id: `01JD8X4M2Q9W7E5R3${String(b * 1000 + i).padStart(9, "0")}`, content: `imported note ${b}-${i} about the checkout flow`, project: "bulk",
        kind: MemoryKind.FACT, status: MemoryStatus.ACTIVE, confidence: 0.8, importance: 3, createTime: now, updateTime: now,
      }));
      expect((await daemon.clients.admin.import({ memories })).created).toBe(1000);
    }
    // Written last: once the watcher reads this far, whatever it was going to be told has come.
    const sentinel = (await daemon.clients.memory.save({ content: "saved after the imports", project: "sentinel" })).memory;
    const all = await readUntil(messages, (so) => changesOf(so).some((c) => c.memoryId === sentinel?.id));
    stop.abort();
    expect(all.filter((m) => m.missed).length).toBeGreaterThan(0);
    expect(changesOf(all).length).toBeLessThan(batches * 1000);
    expect((await daemon.clients.admin.stats({ project: "bulk" })).total).toBe(BigInt(batches * 1000));
  });

  it("ends a viewer's watch over loopback TCP when its session is revoked", async () => {
    const origin = `http://127.0.0.1:${port}`;
    const link = await daemon.clients.viewer.openViewer({});
    const session = await redeem(port, origin, new URL(link.url).hash.slice("#sign-in=".length));
    const asViewerPage: Interceptor = (next) => (req) => {
      req.header.set("memd-viewer-session", session);
      req.header.set("origin", origin);
      return next(req);
    };
    const viewer = createClient(ChangeService, createConnectTransport({ baseUrl: origin, httpVersion: "1.1", interceptors: [asViewerPage] }));
    const messages = await watch(viewer.watchChanges({}));
    const saved = (await daemon.clients.memory.save({ content: "The shop database is PostgreSQL 15.", project: "shop" })).memory;
    expect(changesOf(await readUntil(messages, (so) => changesOf(so).length > 0))[0]?.memoryId).toBe(saved?.id);
    await daemon.clients.viewer.revokeViewerSessions({});
    const error = await endOf(messages);
    expect(error.code).toBe(Code.Unauthenticated);
    expect(error.rawMessage).toMatch(/viewer session ended/);
  });

  it("ends every watch with unavailable as memd begins to stop, rather than after the drain", async () => {
    const own = await spawnDaemon();
    try {
      const messages = await watch(own.clients.changes.watchChanges({}));
      const stopped = own.stop();
      const error = await endOf(messages);
      expect(error.code).toBe(Code.Unavailable);
      // Not the abort that ends calls still running once the drain's wait is over.
      expect(error.rawMessage).toMatch(/^memd is stopping: watch again once it is back/);
      expect(await stopped).toBe(0);
    } finally {
      await removeDaemon(own);
    }
  });
});

/** Trades a sign-in link's code for a session id, as the viewer's page does. */
function redeem(port: number, origin: string, code: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/ui/session", agent: false, headers: { host: `127.0.0.1:${port}`, origin } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => (res.statusCode === 200 ? resolve((JSON.parse(text) as { session: string }).session) : reject(new Error(text))));
    });
    req.on("error", reject);
    req.end(code);
  });
}
