// The web viewer's sign-in and guard against a real daemon on loopback TCP, spoken to as a
// browser speaks: one-time links, the session header, Origin and Host. The page itself is driven
// in a real browser by test/viewer/viewer-browser.test.ts, which also plays the server on another
// port that must get nothing usable.
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

  /** What the page does with a link: trades the code in its fragment for a session id. */
  function redeem(code: string, headers: Record<string, string> = { origin }): Promise<Answer> {
    return request(port, "POST", "/ui/session", headers, code);
  }

  async function signIn(): Promise<Record<string, string>> {
    const link = await daemon.clients.viewer.openViewer({});
    const answer = await redeem(new URL(link.url).hash.slice("#sign-in=".length));
    expect(answer.status).toBe(200);
    return { "memd-viewer-session": (JSON.parse(answer.body) as { session: string }).session };
  }

  it("prints a one-time link with memctl ui whose code, in the fragment, the page trades for a session once", async () => {
    const printed = await runCli(daemon.home, ["ui", "--no-open"]);
    const url = /http:\/\/\S+/.exec(printed.stdout)?.[0] ?? "";
    expect(url).toMatch(new RegExp(`^${origin}/ui/#sign-in=[0-9a-f]{64}$`));
    const code = new URL(url).hash.slice("#sign-in=".length);
    // Only the page itself trades a code: a POST from another origin, or none, is refused and spends nothing.
    expect((await redeem(code, { origin: `http://127.0.0.1:${port + 1}` })).status).toBe(403);
    expect((await redeem(code, {})).status).toBe(403);
    const first = await redeem(code);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ session: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(first.headers["set-cookie"]).toBeUndefined();
    expect(first.headers["cache-control"]).toBe("no-store");
    const firstSession = { "memd-viewer-session": (JSON.parse(first.body) as { session: string }).session, origin };
    expect((await call(port, "AdminService/Health", firstSession)).status).toBe(200);
    // A code that comes twice was seen by someone else too: the session it made ends as well.
    const again = await redeem(code);
    expect(again.status).toBe(403);
    expect(JSON.parse(again.body).error).toContain("memctl ui");
    expect((await call(port, "AdminService/Health", firstSession)).status).toBe(401);
    expect((await request(port, "GET", "/ui/session")).status).toBe(403);
  });

  it("serves the page's files, which hold no data, with its own scripts only and no framing", async () => {
    const page = await request(port, "GET", "/ui/");
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script type="module" src="app.js"></script>');
    expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect((await request(port, "GET", "/ui/app.js")).headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect((await request(port, "GET", "/ui/../token")).status).toBe(404);
    expect((await request(port, "GET", "/ui/index.html/../../token")).status).toBe(404);
    expect((await request(port, "GET", "/ui/", { host: "evil.example" })).status).toBe(403);
  });

  it("takes the session for the API from the viewer's own origin only, and never as a cookie", async () => {
    const session = await signIn();
    const own = await call(port, "AdminService/Health", { ...session, origin });
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body)).toMatchObject({ health: { ok: true } });
    expect((await call(port, "AdminService/Health", { ...session, origin: `http://127.0.0.1:${port + 1}` })).status).toBe(401);
    expect((await call(port, "AdminService/Health", { ...session, origin: "https://evil.example" })).status).toBe(401);
    // No Origin is not a browser's page: the session alone is not enough.
    expect((await call(port, "AdminService/Health", session)).status).toBe(401);
    expect((await call(port, "AdminService/Health", { origin })).status).toBe(401);
    expect((await call(port, "AdminService/Health", { "memd-viewer-session": "0".repeat(64), origin })).status).toBe(401);
    // The cookie the viewer used to keep, which every server on 127.0.0.1 received, is no credential.
    const id = session["memd-viewer-session"] ?? "";
    expect((await call(port, "AdminService/Health", { cookie: `memd_viewer_${port}=${id}`, origin })).status).toBe(401);
    const rebound = await call(port, "AdminService/Health", { ...session, origin: "http://evil.example", host: "evil.example" });
    expect(rebound.status).toBe(403);
  });

  it("ends every session with memctl ui --revoke", async () => {
    const session = await signIn();
    expect((await call(port, "AdminService/Health", { ...session, origin })).status).toBe(200);
    const revoked = await runCli(daemon.home, ["ui", "--revoke"]);
    expect(revoked.stdout).toMatch(/^ended \d+ viewer sessions and \d+ unused links/);
    expect((await call(port, "AdminService/Health", { ...session, origin })).status).toBe(401);
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
