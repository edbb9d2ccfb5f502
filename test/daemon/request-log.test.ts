import dc from "node:diagnostics_channel";
import fs from "node:fs";
import path from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, describe, expect, it } from "vitest";
import { createMemdClients, createSocketTransport } from "../../clients/transport/transport.js";
import { loadConfig } from "../../daemon/src/config/config.js";
import { readEnv } from "../../daemon/src/config/env.js";
import { startDaemon } from "../../daemon/src/daemon.js";
import { makeHome, removeDaemon, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const daemons: TestDaemon[] = [];
afterAll(async () => {
  for (const daemon of daemons) await removeDaemon(daemon);
});

interface RequestLine {
  msg: string;
  requestId?: string;
  rpc?: string;
  ms?: number;
  code?: string;
}

function readLog(home: string): RequestLine[] {
  return fs
    .readFileSync(path.join(home, "logs", "memd.log"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as RequestLine);
}

describe("request ids", () => {
  it("gives every call its own id, returned to the caller and logged with the call's outcome", async () => {
    const daemon = await spawnDaemon();
    daemons.push(daemon);
    // More calls than one draw of ids from the random generator holds, so a refill is crossed.
    const okIds: string[] = [];
    for (let i = 0; i < 700; i += 1) {
      await daemon.clients.admin.health({}, { onHeader: (header) => okIds.push(header.get("x-request-id") ?? "") });
    }
    const rejected = await daemon.clients.memory.get({ id: "not-an-id" }).then(
      () => undefined,
      (error: unknown) => ConnectError.from(error),
    );
    expect(rejected?.code).toBe(Code.NotFound);
    const rejectedId = rejected?.metadata.get("x-request-id") ?? "";

    expect(await daemon.stop()).toBe(0);
    const lines = readLog(daemon.home);
    const byId = new Map(lines.filter((line) => line.requestId !== undefined).map((line) => [line.requestId, line]));

    for (const id of [...okIds, rejectedId]) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set([...okIds, rejectedId]).size).toBe(okIds.length + 1);
    for (const id of okIds) {
      expect(byId.get(id)).toMatchObject({ msg: "rpc ok", rpc: "memd.v1.AdminService/Health", ms: expect.any(Number) });
    }
    expect(byId.get(rejectedId)).toMatchObject({ msg: "rpc rejected", rpc: "memd.v1.MemoryService/Get", code: "NotFound" });
  }, 60_000);

  it("logs a call the daemon answers while it shuts down, and closes its log only after that line", async () => {
    const home = makeHome();
    const config = loadConfig(readEnv({ HOME: home, MEMD_HOME: home, MEMD_EMBEDDER: "none", MEMD_LOG_LEVEL: "info" }));
    const daemon = await startDaemon(config);
    // Shutdown begins as the call arrives: the call is served, then the log is closed.
    let closing: Promise<void> | undefined;
    const shutDownOnArrival = () => process.nextTick(() => (closing ??= daemon.close()));
    dc.subscribe("http.server.request.start", shutDownOnArrival);
    let requestId = "";
    try {
      const clients = createMemdClients(createSocketTransport({ socketPath: config.socketPath, httpVersion: "1.1" }));
      await clients.admin.health({}, { onHeader: (header) => (requestId = header.get("x-request-id") ?? "") });
      expect(closing).toBeDefined();
      await closing;
    } finally {
      dc.unsubscribe("http.server.request.start", shutDownOnArrival);
    }
    const lines = readLog(home);
    fs.rmSync(home, { recursive: true, force: true });
    expect(lines.find((line) => line.requestId === requestId)).toMatchObject({ msg: "rpc ok", rpc: "memd.v1.AdminService/Health" });
  });
});
