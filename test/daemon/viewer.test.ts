// The web viewer's sign-in and guard against a real daemon on loopback TCP, spoken to as a
// browser speaks: one-time links, the session cookie, Origin and Host. The page itself is driven
// in a real browser by test/viewer/viewer-browser.test.ts.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, runCli, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(port: number, method: string, route: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: route, agent: false, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A Connect unary call with JSON, as the viewer's page makes it (fetch adds Origin to a POST). */
function call(port: number, rpc: string, headers: Record<string, string>, message: object = {}): Promise<Answer> {
  return request(port, "POST", `/memd.v1.${rpc}`, { "content-type": "application/json", ...headers }, JSON.stringify(message));
}

describe("the web viewer's sign-in", () => {
  let daemon: TestDaemon;
  let port: number;
  let origin: string;

  beforeAll(async () => {
    port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    daemon = await spawnDaemon({ args: ["--listen", `127.0.0.1:${port}`] });
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  async function signIn(): Promise<string> {
    const link = await daemon.clients.viewer.openViewer({});
    const answer = await request(port, "GET", new URL(link.url).pathname + new URL(link.url).search);
    expect(answer.status).toBe(303);
    const cookie = String(answer.headers["set-cookie"]?.[0] ?? "");
    return cookie.split(";")[0] ?? "";
  }

  it("prints a one-time link with memctl ui that becomes an HttpOnly, SameSite=Strict cookie, once", async () => {
    const printed = await runCli(daemon.home, ["ui", "--no-open"]);
    const url = /http:\/\/\S+/.exec(printed.stdout)?.[0] ?? "";
    expect(url).toMatch(new RegExp(`^${origin}/ui/sign-in\\?code=[0-9a-f]{64}$`));
    const first = await request(port, "GET", new URL(url).pathname + new URL(url).search);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe("/ui/");
    expect(first.headers["set-cookie"]?.[0]).toMatch(new RegExp(`^memd_viewer_${port}=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=/$`));
    const again = await request(port, "GET", new URL(url).pathname + new URL(url).search);
    expect(again.status).toBe(403);
    expect(again.body).toContain("memctl ui");
    expect(again.headers["set-cookie"]).toBeUndefined();
  });

  it("serves the page to a signed-in browser only, with its own scripts and no framing", async () => {
    const cookie = await signIn();
    const page = await request(port, "GET", "/ui/", { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script type="module" src="app.js"></script>');
    expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect((await request(port, "GET", "/ui/app.js", { cookie })).headers["content-type"]).toBe("text/javascript; charset=utf-8");
    const anonymous = await request(port, "GET", "/ui/");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).not.toContain("app.js");
    expect((await request(port, "GET", "/ui/../token", { cookie })).status).toBe(404);
    expect((await request(port, "GET", "/ui/index.html/../../token", { cookie })).status).toBe(404);
  });

  it("takes the cookie for the API from the viewer's own origin only", async () => {
    const cookie = await signIn();
    const own = await call(port, "AdminService/Health", { cookie, origin });
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body)).toMatchObject({ health: { ok: true } });
    // Another local server (another user's, say) on another port: same site, so a browser sends the cookie, but its own Origin.
    const otherPort = await call(port, "AdminService/Health", { cookie, origin: `http://127.0.0.1:${port + 1}` });
    expect(otherPort.status).toBe(401);
    expect((await call(port, "AdminService/Health", { cookie, origin: "https://evil.example" })).status).toBe(401);
    // No Origin is not a browser's page: the cookie alone is not enough.
    expect((await call(port, "AdminService/Health", { cookie })).status).toBe(401);
    expect((await call(port, "AdminService/Health", { origin })).status).toBe(401);
    expect((await call(port, "AdminService/Health", { cookie: `memd_viewer_${port}=${"0".repeat(64)}`, origin })).status).toBe(401);
    const rebound = await call(port, "AdminService/Health", { cookie, origin: "http://evil.example", host: "evil.example" });
    expect(rebound.status).toBe(403);
    expect((await request(port, "GET", "/ui/", { cookie, host: "evil.example" })).status).toBe(403);
  });

  it("ends every session with memctl ui --revoke", async () => {
    const cookie = await signIn();
    expect((await call(port, "AdminService/Health", { cookie, origin })).status).toBe(200);
    const revoked = await runCli(daemon.home, ["ui", "--revoke"]);
    expect(revoked.stdout).toMatch(/^ended \d+ viewer sessions and \d+ unused links/);
    expect((await call(port, "AdminService/Health", { cookie, origin })).status).toBe(401);
    expect((await request(port, "GET", "/ui/", { cookie })).status).toBe(401);
  });
});

describe("memctl ui without a loopback listener", () => {
  it("says how to turn the listener on", async () => {
    const daemon = await spawnDaemon();
    try {
      const printed = await runCli(daemon.home, ["ui", "--no-open"]);
      expect(printed.code).toBe(1);
      expect(printed.stderr).toContain("memd does not listen on loopback TCP");
    } finally {
      await daemon.stop();
    }
  });
});
