import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http2 from "node:http2";
import net from "node:net";
import path from "node:path";
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryService } from "../../gen/memd/v1/memory_service_pb.js";
import { DAEMON_BIN, freePort, makeHome, removeDaemon, REPO_ROOT, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawRequest } from "../helpers/raw-http.js";

let daemon: TestDaemon;
let port: number;
let token: string;

function bearer(value: string): Interceptor {
  return (next) => (req) => {
    req.header.set("authorization", `Bearer ${value}`);
    return next(req);
  };
}

beforeAll(async () => {
  port = await freePort();
  daemon = await spawnDaemon({ args: ["--listen", `127.0.0.1:${port}`] });
  token = fs.readFileSync(path.join(daemon.home, "token"), "utf8").trim();
});
afterAll(() => removeDaemon(daemon));

describe("loopback TCP", () => {
  it("keeps the token in a file only this user can read", () => {
    expect(fs.statSync(path.join(daemon.home, "token")).mode & 0o777).toBe(0o600);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
  });

  it("serves Connect and gRPC clients that send the token", async () => {
    const connect = createClient(MemoryService, createConnectTransport({ baseUrl: `http://127.0.0.1:${port}`, httpVersion: "1.1", interceptors: [bearer(token)] }));
    const grpc = createClient(MemoryService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}`, interceptors: [bearer(token)] }));
    const { memory } = await connect.save({ content: "saved over tcp", project: "tcp" });
    const { memory: got } = await grpc.get({ id: memory?.id ?? "" });
    expect(got?.content).toBe("saved over tcp");
  });

  it("refuses a request without a token as unauthenticated", async () => {
    const client = createClient(MemoryService, createConnectTransport({ baseUrl: `http://127.0.0.1:${port}`, httpVersion: "1.1" }));
    const error = await client.search({ query: "tcp" }).catch((e: unknown) => ConnectError.from(e));
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.Unauthenticated);
    expect((error as ConnectError).rawMessage).toMatch(/missing bearer token/);
  });

  it("refuses a wrong token as unauthenticated and stores nothing", async () => {
    const client = createClient(MemoryService, createConnectTransport({ baseUrl: `http://127.0.0.1:${port}`, httpVersion: "1.1", interceptors: [bearer("0".repeat(64))] }));
    const error = await client.save({ content: "sneaky", project: "tcp" }).catch((e: unknown) => ConnectError.from(e));
    expect((error as ConnectError).code).toBe(Code.Unauthenticated);
    const found = await daemon.clients.memory.search({ query: "sneaky", allProjects: true });
    expect(found.results).toEqual([]);
  });

  it("refuses a foreign Host header (DNS rebinding) as permission denied, even with the token", async () => {
    const res = await rawRequest({
      port,
      path: "/memd.v1.MemoryService/Save",
      headers: { host: "attacker.example:80", authorization: `Bearer ${token}` },
      body: JSON.stringify({ content: "rebound", project: "tcp" }),
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: "permission_denied" });
    const found = await daemon.clients.memory.search({ query: "rebound", allProjects: true });
    expect(found.results).toEqual([]);
  });

  // Each request declares a 30 MB body and sends only its first 64 KiB: an answer can only come
  // back if memd decided from the headers alone, without waiting to read (and parse) the body.
  const DECLARED_BYTES = 30 * 1024 * 1024;

  it.each([
    ["no token", {}, "401 Unauthorized", "unauthenticated"],
    ["a foreign Host, even with the token", { host: "attacker.example" }, "403 Forbidden", "permission_denied"],
  ] as const)("refuses a 30 MB HTTP/1.1 body with %s before reading it", { timeout: 15_000 }, async (_what, headers, status, code) => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1");
      let received = "";
      const host = "host" in headers ? headers.host : `127.0.0.1:${port}`;
      const authorization = "host" in headers ? `Authorization: Bearer ${token}\r\n` : "";
      socket.on("connect", () => {
        socket.write(`POST /memd.v1.MemoryService/Save HTTP/1.1\r\nHost: ${host}\r\n${authorization}Content-Type: application/json\r\nContent-Length: ${DECLARED_BYTES}\r\n\r\n`);
        socket.write(Buffer.alloc(64 * 1024, 0x20));
      });
      socket.on("data", (chunk) => {
        received += chunk.toString();
      });
      socket.on("error", reject);
      // memd closes the connection after its answer rather than drain the rest of the body.
      socket.on("close", () => resolve(received));
    });
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status}`));
    expect(answer).toContain(`"code":"${code}"`);
    expect(daemon.process.exitCode).toBeNull();
  });

  it("refuses a 30 MB HTTP/2 gRPC body without a token before reading it", { timeout: 15_000 }, async () => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    try {
      const headers = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
        const stream = session.request({ ":method": "POST", ":path": "/memd.v1.MemoryService/Save", "content-type": "application/grpc", "content-length": String(DECLARED_BYTES) });
        stream.on("response", resolve);
        stream.on("error", reject);
        stream.write(Buffer.alloc(64 * 1024));
      });
      expect(headers["grpc-status"]).toBe("16");
      expect(decodeURIComponent(String(headers["grpc-message"]))).toMatch(/missing bearer token/);
    } finally {
      session.destroy();
    }
  });

  it("answers Save and Search from Python with only its standard library", () => {
    const result = spawnSync("python3", [path.join(REPO_ROOT, "test/fixtures/memd_client.py"), String(port), path.join(daemon.home, "token")], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    const out = JSON.parse(result.stdout) as { saved: string; found: string[] };
    expect(out.found).toContain(out.saved);
  });

  it("refuses at start-up to listen on an address other machines can reach", () => {
    const home = makeHome();
    const result = spawnSync(process.execPath, [DAEMON_BIN, "--listen", "0.0.0.0:7077"], { env: { ...process.env, MEMD_HOME: home }, encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/refusing to listen on 0\.0\.0\.0/);
    expect(fs.existsSync(path.join(home, "memd.db"))).toBe(false);
    fs.rmSync(home, { recursive: true, force: true });
  });
});
