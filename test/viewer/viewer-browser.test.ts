// The web viewer in a real browser: Debian's Chromium driven by playwright-core, against a real
// daemon on loopback TCP (viewer-harness.ts). MEMD_SCREENSHOTS=docs writes docs/viewer.md's screenshots.
import fs from "node:fs";
import path from "node:path";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MemoryKind, MemoryStatus, Provenance } from "../../gen/memd/v1/memory_pb.js";
import type { TestDaemon } from "../helpers/daemon.js";
import { describeUnless } from "../helpers/skip-unless.js";
import { chromiumMissing, consoleProblems, layoutProblems, SCREENSHOTS, startViewer, type Viewer } from "./viewer-harness.js";
import { provenMemory } from "../helpers/proven-memory.js";

describeUnless(chromiumMissing, "the web viewer in Chromium", () => {
  let viewer: Viewer;
  let daemon: TestDaemon;
  let port: number;
  let claudeHome: string;
  const signedIn = (hash?: string): Promise<Page> => viewer.signedIn(hash);

  beforeAll(async () => {
    viewer = await startViewer();
    ({ daemon, port, claudeHome } = viewer);
    for (const [content, kind, project, concepts] of [
      ["Payments go through Stripe Checkout; we never store card numbers ourselves.", MemoryKind.DECISION, "shop", ["payments", "stripe"]],
      ["Stripe webhooks are verified with the signing secret before the order is marked paid.", MemoryKind.PROCEDURE, "shop", ["stripe", "webhooks"]],
      ["The shop database is PostgreSQL 15; local state stays in SQLite.", MemoryKind.FACT, "shop", ["postgres"]],
      ["Refunds over 500 EUR need a second person's approval in the Stripe dashboard.", MemoryKind.RULE, "shop", ["stripe", "refunds"]],
    ] as const) {
      await daemon.clients.memory.save({ content, kind, project, concepts: [...concepts] });
    }
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it("signs in through the one-time link, searches as the person types, and draws each result's score", async () => {
    const context = await viewer.browser.newContext({ viewport: { width: 1000, height: 760 }, colorScheme: "light" });
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
    // Reached through the entity graph too: its bar is full, and as thin as the others.
    expect(await first.getByRole("meter", { name: "graph" }).getAttribute("aria-valuenow")).toBe("1.00");
    const heights = await first.getByRole("meter").evaluateAll((meters) => meters.map((m) => m.getBoundingClientRect().height));
    expect(new Set(heights).size).toBe(1);
    expect(await layoutProblems(page)).toEqual([]);
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, "viewer-search.png") });
    await context.close();
  });

  it("supersedes a memory from its page, and shows both claims in the new one's history", async () => {
    const { memory } = await daemon.clients.memory.save({ content: "We deploy with Capistrano.", kind: MemoryKind.DECISION, project: "shop" });
    const page = await signedIn(`#/memory/${memory?.id}`);
    await expect.poll(() => page.textContent("#memory-view .content")).toBe("We deploy with Capistrano.");
    await page.getByLabel("Correction").fill("We deploy with Kamal 2, not Capistrano.");
    await page.getByRole("button", { name: "Supersede" }).click();
    await expect.poll(() => page.textContent("#memory-view .content")).toBe("We deploy with Kamal 2, not Capistrano.");
    const claims = page.getByRole("list", { name: "Claims, oldest first" }).getByRole("listitem");
    expect(await claims.allTextContents()).toEqual([expect.stringMatching(/superseded\s*We deploy with Capistrano\.$/), expect.stringMatching(/active\s*We deploy with Kamal 2/)]);
    const newId = new URL(page.url()).hash.split("/")[2] ?? "";
    expect((await daemon.clients.memory.get({ id: memory?.id ?? "" })).memory).toMatchObject({ status: MemoryStatus.SUPERSEDED, supersededBy: newId });
    // An edit in place keeps what it replaced in the history, shown field by field.
    await page.getByLabel("Content").fill("We deploy with Kamal 2, not Capistrano; deploys run from CI.");
    await page.getByRole("button", { name: "Save the edit" }).click();
    const changes = page.getByRole("list", { name: "Changes, oldest first" }).getByRole("listitem");
    await expect.poll(() => changes.last().textContent()).toMatch(/updated/);
    const replaced = changes.last().locator(".detail-fields").first();
    expect(await replaced.locator(":scope > dt").allTextContents()).toEqual(["replaced"]);
    expect(await replaced.locator("dd dt").allTextContents()).toEqual(["content", "problem", "solution", "concepts", "files", "confidence", "kind"]);
    expect(await replaced.locator("dd dd").first().textContent()).toBe("We deploy with Kamal 2, not Capistrano.");
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, "viewer-memory.png"), fullPage: true });
    await page.context().close();
  });

  it("promotes one staged guess and rejects another from the staged page, each in one click", async () => {
    const keep = (await daemon.clients.memory.save({ content: "The user seems to prefer squash merges.", project: "global", provenance: Provenance.DISTILLED, sessionId: "s-42" })).memory;
    const drop = (await daemon.clients.memory.save({ content: "The user seems to like tabs.", project: "global", provenance: Provenance.DISTILLED, sessionId: "s-42" })).memory;
    expect([keep?.status, drop?.status]).toEqual([MemoryStatus.STAGED, MemoryStatus.STAGED]);
    const page = await signedIn("#/staged");
    const item = (text: string) => page.getByRole("list", { name: "Staged memories, newest first" }).getByRole("listitem").filter({ hasText: text });
    await expect.poll(() => item("squash merges").count()).toBe(1);
    expect(await item("squash merges").textContent()).toContain("session s-42");
    await item("squash merges").getByRole("button", { name: "Promote" }).click();
    await expect.poll(() => item("squash merges").count()).toBe(0);
    await item("like tabs").getByRole("button", { name: "Reject" }).click();
    await expect.poll(() => item("like tabs").count()).toBe(0);
    expect((await daemon.clients.memory.get({ id: keep?.id ?? "" })).memory?.status).toBe(MemoryStatus.ACTIVE);
    expect((await daemon.clients.memory.get({ id: drop?.id ?? "" })).memory?.status).toBe(MemoryStatus.ARCHIVED);
    expect((await daemon.clients.memory.history({ id: keep?.id ?? "" })).events.map((e) => e.action)).toEqual(["created", "promoted"]);
    await page.context().close();
  });

  it("archives a memory and restores it, each change in its history", async () => {
    const { memory } = await daemon.clients.memory.save({ content: "Nightly backups go to the storage box.", kind: MemoryKind.FACT, project: "ops" });
    const page = await signedIn(`#/memory/${memory?.id}`);
    await page.getByRole("button", { name: "Archive" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Restore" }).count()).toBe(1);
    expect((await daemon.clients.memory.get({ id: memory?.id ?? "" })).memory?.status).toBe(MemoryStatus.ARCHIVED);
    await page.getByRole("button", { name: "Restore" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Archive" }).count()).toBe(1);
    expect((await daemon.clients.memory.get({ id: memory?.id ?? "" })).memory?.status).toBe(MemoryStatus.ACTIVE);
    const changes = page.getByRole("list", { name: "Changes, oldest first" }).getByRole("listitem");
    expect((await changes.allTextContents()).map((t) => /(created|archived|updated)/.exec(t)?.[1])).toEqual(["created", "archived", "updated"]);
    await page.context().close();
  });

  it("shows the daemon, the embedder, the vault, the last maintenance run and the ledger as a chart", async () => {
    await daemon.clients.admin.clean({});
    const page = await signedIn("#/health");
    const health = page.getByRole("region", { name: "Health" });
    await expect.poll(() => health.getByRole("img", { name: /^Lifecycle ledger: / }).count()).toBe(1);
    const stats = await daemon.clients.admin.stats({});
    const active = stats.ledger.find((c) => c.key === "active")?.count ?? 0n;
    expect(await health.getByRole("img", { name: /^Lifecycle ledger: / }).getAttribute("aria-label")).toContain(`active ${active}`);
    expect(await page.locator(`.ledger [data-key="active"] > span`).evaluate((bar) => bar.style.width)).not.toBe("0.0%");
    expect(await health.getByRole("region", { name: "Embedder" }).textContent()).toContain("none: ");
    expect(await health.getByRole("region", { name: "Vault" }).textContent()).toMatch(/files\d+, 0 waiting to be written|files\d+, \d+ waiting/);
    expect(await health.getByRole("region", { name: "Last maintenance" }).textContent()).toMatch(/\(clean\)/);
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, "viewer-health.png"), fullPage: true });
    await page.context().close();
  });

  it("writes an approved skill proposal as a SKILL.md, and stops proposing a dismissed one", async () => {
    // Stated ten days ago and used since: a memory saved minutes ago is not proven enough to propose.
    const save = async (content: string) => {
      const memory = provenMemory({ content, kind: MemoryKind.PROCEDURE, project: "global", concepts: ["release"] });
      await daemon.clients.admin.import({ memories: [memory] });
      return memory.id;
    };
    const approved = await save("Tag a release with git tag -s vX.Y.Z, then push the tag; CI publishes it.");
    const dismissed = await save("Rotate the staging database password every quarter with make rotate-staging.");
    const page = await signedIn("#/skills");
    const item = (id: string) => page.getByRole("list", { name: "Skill proposals, most proven first" }).getByRole("listitem").filter({ hasText: id });
    await expect.poll(() => item(approved).count()).toBe(1);
    await item(approved).getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => item(approved).count()).toBe(0);
    const written = fs.readdirSync(path.join(claudeHome, "skills"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith("SKILL.md"));
    expect(written).toHaveLength(1);
    expect(fs.readFileSync(path.join(claudeHome, "skills", written[0] ?? ""), "utf8")).toContain("git tag -s vX.Y.Z");
    await item(dismissed).getByRole("button", { name: "Dismiss" }).click();
    await expect.poll(() => item(dismissed).count()).toBe(0);
    expect((await daemon.clients.skills.listSkillProposals({ limit: 100 })).proposals.map((p) => p.memoryId)).not.toContain(dismissed);
    await page.context().close();
  });

  it("draws each kind's fading and lists what the next maintenance run would archive", async () => {
    const monthAgo = timestampFromMs(Date.now() - 30 * 86_400_000);
    const id = "01JD8X4M2Q9W7E5R3T00000777";
    await daemon.clients.admin.import({
      memories: [{ id, content: "npm test failed once on a flaky port", kind: MemoryKind.TRACE, project: "ops", status: MemoryStatus.ACTIVE, confidence: 0.5, importance: 3, createTime: monthAgo, updateTime: monthAgo }],
    });
    const page = await signedIn("#/fading");
    const fading = page.getByRole("region", { name: "Fading" });
    await expect.poll(() => fading.locator("polyline").count()).toBe(10);
    expect(await fading.getByRole("img", { name: /^Decay by kind: / }).getAttribute("aria-label")).toMatch(/episode half-life 7 days/);
    expect(await fading.getByRole("list", { name: "Would be archived" }).textContent()).toContain(`${id} decayed`);
    // A dry run: nothing was archived.
    expect((await daemon.clients.memory.get({ id })).memory?.status).toBe(MemoryStatus.ACTIVE);
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, "viewer-fading.png"), fullPage: true });
    await page.context().close();
  });

  it("counts what happened today on the timeline, as the daemon recorded it", async () => {
    const page = await signedIn("#/timeline");
    const today = new Date().toISOString().slice(0, 10);
    const row = page.getByRole("row", { name: new RegExp(`^${today}`) });
    await expect.poll(() => row.count()).toBe(1);
    const recorded = (await daemon.clients.admin.timeline({ days: 1 })).days[0]?.counts ?? [];
    const saved = recorded.find((c) => c.key === "created")?.count ?? 0n;
    expect(saved).toBeGreaterThan(0n);
    const cells = await row.getByRole("cell").allTextContents();
    expect(cells[0]).toBe(String(saved));
    expect(await page.getByRole("table", { name: /^Changes per day/ }).getByRole("row").count()).toBe(31);
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, "viewer-timeline.png") });
    await page.context().close();
  });

  it("draws a project's entity graph, and lists it as text with links to the memories", async () => {
    const page = await signedIn("#/graph/shop");
    const listing = page.getByRole("list", { name: "Entities and the memories they link" });
    await expect.poll(() => listing.getByRole("listitem").filter({ hasText: /^stripe/ }).count()).toBe(1);
    const stripe = listing.getByRole("listitem").filter({ hasText: /^stripe/ });
    expect(await stripe.getByRole("link").count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator(".entity-graph canvas").count()).toBeGreaterThan(0);
    // Drawn within the page's Content-Security-Policy: nothing refused, nothing warned about.
    expect(consoleProblems(page)).toEqual([]);
    const graph = await daemon.clients.memory.graph({ project: "shop" });
    expect(await listing.getByRole("listitem").count()).toBe(graph.entities.length);
    await stripe.getByRole("link").first().click();
    await expect.poll(() => page.textContent("#memory-view .content")).toContain("Stripe");
    if (SCREENSHOTS) {
      await page.goto(`http://127.0.0.1:${port}/ui/#/graph/shop`);
      await expect.poll(() => listing.getByRole("listitem").count()).toBeGreaterThan(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, "viewer-graph.png"), fullPage: true });
    }
    await page.context().close();
  });

  it("tells a browser that did not sign in to run memctl ui, and gives it nothing from the API", async () => {
    const context = await viewer.browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`http://127.0.0.1:${port}/ui/`);
    // The page's files hold no data; everything it would show comes from the API.
    expect(response?.status()).toBe(200);
    await expect.poll(() => page.textContent("#health")).toMatch(/not signed in to memd.*run memctl ui/);
    expect(await page.locator("#results > li").count()).toBe(0);
    const status = await page.evaluate(async () => (await fetch("/memd.v1.AdminService/Health", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status);
    expect(status).toBe(401);
    await context.close();
  });

  it("says so when a sign-in link was already used, and takes the link's code out of the address", async () => {
    const { url } = await daemon.clients.viewer.openViewer({});
    const first = await viewer.browser.newContext();
    const signedInPage = await first.newPage();
    await signedInPage.goto(url);
    await signedInPage.waitForFunction(() => performance.getEntriesByName("memd:usable").length > 0);
    const context = await viewer.browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await expect.poll(() => page.textContent("#problem")).toMatch(/this sign-in link no longer works/);
    expect(new URL(page.url()).hash).toBe("#/");
    await first.close();
    await context.close();
  });
});
