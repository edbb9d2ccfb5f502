// The viewer's Injections page in a real browser: Debian's Chromium driven by playwright-core,
// against a real daemon on loopback TCP, after the daemon briefed a session, pointed its prompts
// (one at nothing) and answered a recall. Where Chromium is missing outside CI the test is
// skipped and says so; in CI it fails. MEMD_SCREENSHOTS=docs writes docs/viewer.md's screenshot.
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MemoryKind } from "../../gen/memd/v1/memory_pb.js";
import { freePort, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { describeUnless } from "../helpers/skip-unless.js";
import { chromiumMissing, launchChromium, SCREENSHOTS } from "./viewer-harness.js";

const SESSION = "5c0ffee0-4a11-4b1d-9e55-0000000000aa";

describeUnless(chromiumMissing, "the viewer's Injections page in Chromium", () => {
  let daemon: TestDaemon;
  let browser: Browser;
  let port: number;
  let webhook: string;
  let argo: string;

  beforeAll(async () => {
    port = await freePort();
    daemon = await spawnDaemon({ args: ["--listen", `127.0.0.1:${port}`] });
    const { memory } = daemon.clients;
    const save = async (content: string, kind: MemoryKind) => (await memory.save({ content, kind, project: "billing" })).memory?.id ?? "";
    argo = await save("We deploy the billing service with Argo CD from the deploy repo.", MemoryKind.DECISION);
    await save("Invoices are numbered per tenant and year, never globally.", MemoryKind.FACT);
    webhook = await save("To rotate the webhook signing secret run make rotate-webhook-secret, then restart the billing worker.", MemoryKind.PROCEDURE);
    const who = { sessionId: SESSION, sourceAgent: "claude-code", project: "billing" };
    await memory.brief({ ...who, via: "SessionStart" });
    const pointed = await memory.suggest({ ...who, query: "How do I rotate the webhook signing secret?", via: "UserPromptSubmit" });
    expect(pointed.pointers.map((p) => p.id)).toEqual([webhook]);
    await memory.suggest({ ...who, query: "ok, go ahead", via: "UserPromptSubmit" });
    await memory.recall({ ...who, query: "argo cd deploy", via: "memory_search" });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  /** A signed-in page at `hash`, with the console's errors gathered (a CSP refusal shows there). */
  async function signedIn(hash: string, options: { width?: number; dark?: boolean } = {}): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: options.width ?? 1000, height: 900 }, colorScheme: options.dark ? "dark" : "light" });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      // The page has no icon, and Chromium asks for one: the 404 of /favicon.ico is not the page's doing.
      if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico")) errors.push(`${message.text()} ${message.location().url}`);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto((await daemon.clients.viewer.openViewer({})).url);
    await page.waitForFunction(() => performance.getEntriesByName("memd:usable").length > 0);
    await page.goto(`http://127.0.0.1:${port}/ui/${hash}`);
    return { page, errors };
  }

  it("totals the day per agent and lists the session, then shows what the agent was told and why, oldest first, with links to the memories", async () => {
    const { page, errors } = await signedIn("#/");
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Injections" }).click();
    const today = new Date().toISOString().slice(0, 10);
    const totals = page.getByRole("table", { name: "Per UTC day and agent" });
    await expect.poll(() => totals.getByRole("row", { name: new RegExp(`^${today} claude-code`) }).count()).toBe(1);
    const [summary] = (await daemon.clients.injections.summarizeInjections({})).totals;
    const cells = await totals.getByRole("row", { name: new RegExp(`^${today} claude-code`) }).getByRole("cell").allTextContents();
    expect(cells.map((c) => c.trim())).toEqual(["claude-code", "3", String(summary?.tokens), "1", "2", "1", "1"]);
    await page.getByRole("table", { name: /^Sessions/ }).getByRole("link", { name: SESSION }).click();
    const told = page.getByRole("list", { name: "What the agent was told, oldest first" });
    await expect.poll(() => told.locator(":scope > li").count()).toBe(4);
    const items = await told.locator(":scope > li").all();
    expect(await items[0]?.locator(".action").textContent()).toBe("briefing via SessionStart");
    expect(await items[1]?.locator(".action").textContent()).toBe("pointers via UserPromptSubmit");
    expect(await items[1]?.getByLabel("The prompt, redacted").textContent()).toBe("How do I rotate the webhook signing secret?");
    expect(await items[1]?.locator(".detail").first().textContent()).toMatch(/^1 memory, \d+ tokens$/);
    expect(await items[1]?.locator(".given li").textContent()).toMatch(/ · procedure · score \d\.\d\d · shares .*rotate/);
    expect(await items[2]?.locator(".detail").first().textContent()).toBe("nothing injected");
    expect(await items[3]?.locator(".action").textContent()).toBe("recall via memory_search");
    expect(await items[3]?.getByRole("link").first().getAttribute("href")).toBe(`#/memory/${argo}`);
    if (SCREENSHOTS) {
      await items[1]?.locator("details summary").click();
      await page.screenshot({ path: path.join(SCREENSHOTS, "viewer-injections.png"), fullPage: true });
    }
    await items[1]?.getByRole("link", { name: /rotate the webhook signing secret/ }).click();
    await expect.poll(() => page.textContent("#memory-view .content")).toContain("make rotate-webhook-secret");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("marks an archived memory's history with how often agents had been told of it, and where last", async () => {
    await daemon.clients.memory.archive({ id: webhook, reason: "moved to the secrets manager" });
    const { page, errors } = await signedIn(`#/memory/${webhook}`);
    const changes = page.getByRole("list", { name: "Changes, oldest first" }).getByRole("listitem");
    await expect.poll(() => changes.count()).toBe(2);
    expect(await changes.nth(1).textContent()).toMatch(new RegExp(`^.*archived.*moved to the secrets managerBefore this, agents were told of it: injected 1 time, last in session ${SESSION} \\(claude-code\\) at \\d{4}-`));
    expect(await changes.nth(1).getByRole("link", { name: SESSION }).getAttribute("href")).toBe(`#/injections/${SESSION}`);
    expect(await page.locator("#memory-view .injected").first().textContent()).toContain("Agents were told of it: injected 1 time");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("fits a phone's width in the dark theme: nothing wider than the screen", async () => {
    const { page, errors } = await signedIn(`#/injections/${SESSION}`, { width: 390, dark: true });
    await expect.poll(() => page.getByRole("list", { name: "What the agent was told, oldest first" }).locator(":scope > li").count()).toBe(4);
    for (const hash of [`#/injections/${SESSION}`, "#/injections"]) {
      await page.goto(`http://127.0.0.1:${port}/ui/${hash}`);
      await expect.poll(() => page.locator("#injections-view h2").count()).toBe(1);
      // A string runs in the page, where the DOM's globals are: the test itself has no DOM types.
      const wide = (await page.evaluate("({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth })")) as { page: number; screen: number };
      expect(wide.page, hash).toBeLessThanOrEqual(wide.screen);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
