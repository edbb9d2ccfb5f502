// The web viewer in a real browser: Debian's Chromium driven by playwright-core, against a real
// daemon on loopback TCP. .ci/run installs Chromium; where it is missing outside CI the test is
// skipped and says so, and in CI it fails. MEMD_SCREENSHOTS=docs writes the README's screenshots.
import fs from "node:fs";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind } from "../../gen/memd/v1/memory_pb.js";
import { freePort, REPO_ROOT, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const CHROMIUM = process.env.MEMD_CHROMIUM ?? "/usr/bin/chromium";
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package before the suite`);
if (!available) console.warn(`viewer browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set MEMD_CHROMIUM)`);

const SCREENSHOTS = process.env.MEMD_SCREENSHOTS === "docs" ? path.join(REPO_ROOT, "docs") : null;

describe.runIf(available)("the web viewer in Chromium", () => {
  let daemon: TestDaemon;
  let browser: Browser;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    daemon = await spawnDaemon({ args: ["--listen", `127.0.0.1:${port}`] });
    for (const [content, kind, project, concepts] of [
      ["Payments go through Stripe Checkout; we never store card numbers ourselves.", MemoryKind.DECISION, "shop", ["payments", "stripe"]],
      ["Stripe webhooks are verified with the signing secret before the order is marked paid.", MemoryKind.PROCEDURE, "shop", ["stripe", "webhooks"]],
      ["The shop database is PostgreSQL 15; local state stays in SQLite.", MemoryKind.FACT, "shop", ["postgres"]],
      ["Refunds over 500 EUR need a second person's approval in the Stripe dashboard.", MemoryKind.RULE, "shop", ["stripe", "refunds"]],
    ] as const) {
      await daemon.clients.memory.save({ content, kind, project, concepts: [...concepts] });
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("signs in through the one-time link, searches as the person types, and draws each result's score", async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 760 }, colorScheme: "light" });
    const page = await context.newPage();
    const { url } = await daemon.clients.viewer.openViewer({});
    await page.goto(url);
    expect(new URL(page.url()).pathname).toBe("/ui/");
    await expect.poll(() => page.textContent("#health")).toMatch(/^memd \S+, /);
    await page.getByLabel("Search memories").pressSequentially("stripe", { delay: 20 });
    const results = page.locator("#results > li");
    await expect.poll(() => results.count()).toBeGreaterThanOrEqual(3);
    await expect.poll(() => page.textContent("#summary")).toMatch(/^\d+ memories in \d+ ms, all projects/);
    const first = results.first();
    expect(await first.locator(".content").textContent()).toContain("Stripe");
    expect(await first.getByRole("meter").count()).toBe(6);
    expect(await first.getByRole("meter", { name: "keyword" }).getAttribute("aria-valuenow")).toBe("1.00");
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, "viewer-search.png") });
    await context.close();
  });

  it("gives a browser that did not sign in neither the page nor the API", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`http://127.0.0.1:${port}/ui/`);
    expect(response?.status()).toBe(401);
    expect(await page.textContent("h1")).toBe("Sign in first");
    const status = await page.evaluate(async () => (await fetch("/memd.v1.AdminService/Health", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status);
    expect(status).toBe(401);
    await context.close();
  });
});
