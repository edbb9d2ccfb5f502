// The web viewer follows what memd does while it is open: each page watches the daemon's changes
// (ChangeService.WatchChanges) and draws itself again, with no reload, as memories are saved,
// staged, changed and archived. Debian's Chromium against a real daemon (viewer-harness.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import { MemoryKind, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { describeUnless } from "../helpers/skip-unless.js";
import { chromiumMissing, consoleProblems, startViewer, type Viewer, waitUntilLive } from "./viewer-harness.js";

/** Generous: the page is drawn again well within a second of a commit; this only keeps a stuck page from hanging the suite. */
const ARRIVES = { timeout: 10_000 };

describeUnless(chromiumMissing, "the web viewer, live", () => {
  let viewer: Viewer;

  beforeAll(async () => {
    viewer = await startViewer();
    await viewer.daemon.clients.memory.save({ content: "Payments go through Stripe Checkout.", kind: MemoryKind.DECISION, project: "shop", concepts: ["stripe"] });
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it("shows a memory an agent saves on the open search page, marked as new, without a reload", async () => {
    const page = await viewer.signedIn("#/");
    await waitUntilLive(page);
    await page.locator("#results > li").first().waitFor();
    // Gone if the page were loaded again.
    await page.evaluate(() => Object.assign(globalThis, { memdNotReloaded: true }));
    const { memory } = await viewer.daemon.clients.memory.save({ content: "Webhook retries are capped at five.", project: "shop", sessionId: "s-7", sourceAgent: "claude-code" });
    const item = page.locator(`#results > li[data-memory-id="${memory?.id}"]`);
    await expect.poll(() => item.count(), ARRIVES).toBe(1);
    expect(await item.getAttribute("class")).toContain("fresh");
    expect(await page.locator("#results > li").first().textContent()).toContain("Webhook retries are capped at five.");
    expect(await page.evaluate(() => (globalThis as { memdNotReloaded?: boolean }).memdNotReloaded)).toBe(true);
    expect(consoleProblems(page)).toEqual([]);
    await page.context().close();
  });

  it("runs the search typed again when a memory it finds is saved", async () => {
    const page = await viewer.signedIn("#/");
    await waitUntilLive(page);
    await page.getByLabel("Search memories").fill("refunds");
    await expect.poll(() => page.textContent("#summary")).toMatch(/^0 memories in/);
    await viewer.daemon.clients.memory.save({ content: "Refunds over 500 EUR need a second approval.", project: "shop", concepts: ["refunds"] });
    await expect.poll(() => page.textContent("#summary"), ARRIVES).toMatch(/^1 memory in/);
    await page.context().close();
  });

  it("shows a guess staged by a transcript sweep on the open staged page", async () => {
    const page = await viewer.signedIn("#/staged");
    await waitUntilLive(page);
    await page.getByText("nothing is staged").waitFor();
    const list = page.getByRole("list", { name: "Staged memories, newest first" });
    await viewer.daemon.clients.memory.save({ content: "The user seems to prefer rebase over merge.", project: "global", provenance: Provenance.DISTILLED, sessionId: "s-9" });
    await expect.poll(() => list.getByRole("listitem").filter({ hasText: "prefer rebase over merge" }).count(), ARRIVES).toBe(1);
    await page.context().close();
  });

  it("adds a change made elsewhere to the open memory's history, field by field", async () => {
    const { memory } = await viewer.daemon.clients.memory.save({ content: "We deploy with Capistrano.", project: "shop" });
    const page = await viewer.signedIn(`#/memory/${memory?.id}`);
    await waitUntilLive(page);
    const changes = page.getByRole("list", { name: "Changes, oldest first" }).getByRole("listitem");
    await expect.poll(() => changes.count()).toBe(1);
    await viewer.daemon.clients.memory.update({ id: memory?.id ?? "", content: "We deploy with Kamal." });
    await expect.poll(() => changes.count(), ARRIVES).toBe(2);
    expect(await page.textContent("#memory-view .content")).toBe("We deploy with Kamal.");
    const replaced = changes.nth(1).locator(".detail-fields").first();
    expect(await replaced.locator("dt").first().textContent()).toBe("replaced");
    expect(await replaced.locator("dd dt").allTextContents()).toContain("content");
    expect(await replaced.locator("dd dd").first().textContent()).toBe("We deploy with Capistrano.");
    await page.context().close();
  });

  it("keeps an edit not yet saved when the memory changes meanwhile, and says that changes wait", async () => {
    const { memory } = await viewer.daemon.clients.memory.save({ content: "Nightly backups go to the storage box.", project: "ops" });
    const page = await viewer.signedIn(`#/memory/${memory?.id}`);
    await waitUntilLive(page);
    await page.getByLabel("Content").fill("Nightly backups go to the storage box and to S3.");
    await viewer.daemon.clients.memory.update({ id: memory?.id ?? "", pinned: true });
    // The change arrived, and was held back for the edit.
    await expect.poll(() => page.textContent("#live"), ARRIVES).toBe("live · changes wait for your edit");
    expect(await page.getByLabel("Content").inputValue()).toBe("Nightly backups go to the storage box and to S3.");
    await page.getByRole("button", { name: "Save the edit" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Unpin" }).count(), ARRIVES).toBe(1);
    expect(await page.textContent("#memory-view .content")).toBe("Nightly backups go to the storage box and to S3.");
    await expect.poll(() => page.textContent("#live"), ARRIVES).toBe("live");
    await page.context().close();
  });

  it("counts a change on the open timeline as it happens", async () => {
    const page = await viewer.signedIn("#/timeline");
    await waitUntilLive(page);
    const today = new Date().toISOString().slice(0, 10);
    const saved = page.getByRole("row", { name: new RegExp(`^${today}`) }).getByRole("cell").first();
    await saved.waitFor();
    const before = Number(await saved.textContent());
    await viewer.daemon.clients.memory.save({ content: "The staging database is reset every Monday.", project: "ops" });
    await expect.poll(async () => Number(await saved.textContent()), ARRIVES).toBe(before + 1);
    await page.context().close();
  });

  it("shows what an agent is told on the open Injections page as memd tells it, without a reload", async () => {
    const who = { sessionId: "s-live-injections", sourceAgent: "codex", project: "shop" };
    await viewer.daemon.clients.memory.brief({ ...who, via: "SessionStart" });
    const page = await viewer.signedIn(`#/injections/${who.sessionId}`);
    await waitUntilLive(page);
    const told = page.getByRole("list", { name: "What the agent was told, oldest first" });
    await expect.poll(() => told.locator(":scope > li").count(), ARRIVES).toBe(1);
    await page.evaluate(() => Object.assign(globalThis, { memdNotReloaded: true }));
    await viewer.daemon.clients.memory.suggest({ ...who, query: "Which payment provider do we use?", via: "UserPromptSubmit" });
    await expect.poll(() => told.locator(":scope > li").count(), ARRIVES).toBe(2);
    expect(await told.locator(":scope > li").last().locator(".action").textContent()).toBe("pointers via UserPromptSubmit");
    expect(await page.evaluate(() => (globalThis as { memdNotReloaded?: boolean }).memdNotReloaded)).toBe(true);
    expect(consoleProblems(page)).toEqual([]);
    await page.context().close();
  });

  it("lets its watch go while the tab is hidden, and reads again what changed meanwhile when it is shown", async () => {
    const page = await viewer.signedIn("#/");
    await waitUntilLive(page);
    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        const { document } = globalThis as unknown as { document: { dispatchEvent(event: unknown): boolean } };
        Object.defineProperty(document, "hidden", { configurable: true, get: () => value });
        document.dispatchEvent(new Event("visibilitychange"));
      }, hidden);
    await setHidden(true);
    await expect.poll(() => page.getAttribute("#live", "data-state"), ARRIVES).toBe("paused");
    const { memory } = await viewer.daemon.clients.memory.save({ content: "Saved while the tab was hidden.", project: "shop" });
    await setHidden(false);
    await expect.poll(() => page.locator(`#results > li[data-memory-id="${memory?.id}"]`).count(), ARRIVES).toBe(1);
    expect(await page.getAttribute("#live", "data-state")).toBe("live");
    await page.context().close();
  });

  it("says the page is signed out when its session is revoked, and stops watching", async () => {
    const page = await viewer.signedIn("#/");
    await waitUntilLive(page);
    await viewer.daemon.clients.viewer.revokeViewerSessions({});
    await expect.poll(() => page.getAttribute("#live", "data-state"), ARRIVES).toBe("signed-out");
    expect(await page.textContent("#problem")).toMatch(/not signed in to memd.*run memctl ui/);
    await page.context().close();
  });
});
