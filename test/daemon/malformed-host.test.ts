import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, removeDaemon, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

let daemon: TestDaemon;
let port: number;

beforeAll(async () => {
  port = await freePort();
  daemon = await spawnDaemon({ args: ["--listen", `127.0.0.1:${port}`] });
});
afterAll(() => removeDaemon(daemon));

/** Writes raw bytes (what no HTTP client would send) and returns everything the daemon answers before it closes. */
function rawExchange(target: { path: string } | { port: number }, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = "path" in target ? net.connect(target.path) : net.connect(target.port, "127.0.0.1");
    let answer = "";
    socket.on("connect", () => socket.write(request));
    socket.on("data", (chunk) => {
      answer += chunk.toString();
      if (/\r\n\r\n[\s\S]*\}$/.test(answer)) socket.end();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
  });
}

const health = (version: string, host: string | null) =>
  `POST /memd.v1.AdminService/Health HTTP/${version}\r\n${host === null ? "" : `Host: ${host}\r\n`}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`;

describe("a request without a usable Host", () => {
  it.each([
    ["HTTP/1.0 without Host, over the Unix socket", "socket", "1.0", null],
    ["HTTP/1.0 without Host, over TCP", "tcp", "1.0", null],
    ["an empty Host, over TCP", "tcp", "1.1", ""],
    ["Host ::1 (an IPv6 address without brackets), over TCP", "tcp", "1.1", "::1"],
    ["Host '127.0.0.1 evil.com', over the Unix socket", "socket", "1.1", "127.0.0.1 evil.com"],
  ] as const)("gets invalid_argument for %s, and the daemon keeps serving", async (_what, via, version, host) => {
    const answer = await rawExchange(via === "socket" ? { path: daemon.socketPath } : { port }, health(version, host));
    expect(answer).toMatch(/^HTTP\/1\.[01] 400 /);
    expect(answer).toContain('"code":"invalid_argument"');
    expect(answer).toContain("no usable Host header");
    expect(daemon.process.exitCode).toBeNull();
    expect((await daemon.clients.admin.health({})).health?.version).not.toBe("");
  });
});
