// Every page of the web viewer as a person sees it, in Chromium: at a desktop's and a phone's
// width, in the light and the dark theme, nothing wider than the screen or oddly tall
// (layoutProblems), and nothing on the console: no style the Content-Security-Policy refused, no
// warning from a library, no failed request. MEMD_LAYOUT_SCREENSHOTS=<dir> keeps a screenshot
// of each, to look at.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MemoryKind, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { provenMemory } from "../helpers/proven-memory.js";
import { describeUnless } from "../helpers/skip-unless.js";
import { chromiumMissing, consoleProblems, DESKTOP, layoutProblems, PHONE, startViewer, type Viewer } from "./viewer-harness.js";

const SHOTS = process.env.MEMD_LAYOUT_SCREENSHOTS ?? null;

/** A page, and what shows that it is drawn. */
interface Shown {
  name: string;
  hash: string;
  /** Run once the page is open, before the wait (typing a query). */
  open?: (page: Page) => Promise<void>;
  drawn: (page: Page) => Promise<void>;
}

describeUnless(chromiumMissing, "the web viewer's layout", () => {
  let viewer: Viewer;
  let pages: Shown[];

  beforeAll(async () => {
    viewer = await startViewer();
    const { memory } = viewer.daemon.clients;
    const save = async (content: string, extra: Parameters<typeof memory.save>[0] = {}) => (await memory.save({ content, project: "shop", ...extra })).memory?.id ?? "";
    await save("Payments go through Stripe Checkout; we never store card numbers ourselves.", { kind: MemoryKind.DECISION, concepts: ["payments", "stripe"] });
    // A procedure a person stated ten days ago and read back since: proven, so the skills page proposes it.
    await viewer.daemon.clients.admin.import({
      memories: [provenMemory({ content: "Stripe webhooks are verified with the signing secret before the order is marked paid.", kind: MemoryKind.PROCEDURE, project: "shop", concepts: ["stripe", "webhooks"] })],
    });
    await save("Refunds over 500 EUR need a second person's approval in the Stripe dashboard.", { kind: MemoryKind.RULE, concepts: ["stripe", "refunds"] });
    // A long word with nowhere to break, as paths and stack traces are.
    const edited = await save(`The failing import is src/checkout/${"payment-intent-".repeat(12)}handler.ts, see ECONNRESET in the webhook worker.`, { concepts: ["stripe"] });
    await memory.update({ id: edited, content: `The failing import is src/checkout/${"payment-intent-".repeat(12)}handler.ts; fixed by retrying on ECONNRESET.`, tags: { values: ["fixed"] } });
    await save("The user seems to prefer squash merges.", { provenance: Provenance.DISTILLED, sessionId: "s-42" });
    // Two decisions that contradict each other, for the contradictions page.
    await save("Auth is Clerk, not custom JWT.", { kind: MemoryKind.DECISION });
    await save("Auth moved to Auth0 last sprint; Clerk's pricing didn't work for us.", { kind: MemoryKind.DECISION });
    await viewer.daemon.clients.admin.clean({});
    // What an agent was told: a briefing and a prompt's pointers, for the injections pages.
    await memory.brief({ project: "shop", sessionId: "s-layout", sourceAgent: "claude-code" });
    await memory.suggest({ query: "how are stripe webhooks verified", project: "shop", sessionId: "s-layout", sourceAgent: "claude-code" });
    pages = [
      { name: "search, latest memories", hash: "#/", drawn: (page) => page.locator("#results > li").first().waitFor() },
      {
        name: "search results",
        hash: "#/",
        open: (page) => page.getByLabel("Search memories").fill("stripe"),
        drawn: (page) => page.getByRole("meter").first().waitFor(),
      },
      { name: "memory", hash: `#/memory/${edited}`, drawn: (page) => page.locator("#memory-view .detail-fields").first().waitFor() },
      { name: "staged", hash: "#/staged", drawn: (page) => page.getByRole("list", { name: "Staged memories, newest first" }).getByRole("listitem").first().waitFor() },
      { name: "contradictions", hash: "#/contradictions", drawn: (page) => page.getByRole("list", { name: "Open contradictions, newest first" }).getByRole("listitem").first().waitFor() },
      { name: "timeline", hash: "#/timeline", drawn: (page) => page.getByRole("table", { name: /^Changes per day/ }).waitFor() },
      { name: "graph", hash: "#/graph/shop", drawn: (page) => page.locator(".entity-graph canvas").first().waitFor() },
      { name: "fading", hash: "#/fading", drawn: (page) => page.locator("#fading-view polyline").first().waitFor() },
      { name: "skills", hash: "#/skills", drawn: (page) => page.getByRole("list", { name: "Skill proposals, most proven first" }).waitFor() },
      { name: "injections", hash: "#/injections", drawn: (page) => page.getByRole("table", { name: "Sessions, the one given something last first" }).getByRole("link").first().waitFor() },
      { name: "one session's injections", hash: "#/injections/s-layout", drawn: (page) => page.getByRole("list", { name: "What the agent was told, oldest first" }).getByRole("listitem").first().waitFor() },
      { name: "health", hash: "#/health", drawn: (page) => page.getByRole("img", { name: /^Lifecycle ledger: / }).waitFor() },
    ];
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it("checks every page the navigation links to", async () => {
    const page = await viewer.signedIn("#/");
    const linked = await page.getByRole("navigation", { name: "Pages" }).getByRole("link").evaluateAll((links) => links.map((a) => (a.getAttribute("href") ?? "").split("/")[1] ?? ""));
    const checked = new Set(pages.map((p) => p.hash.split("/")[1]));
    expect(linked.filter((name) => !checked.has(name)), "a page the navigation links to is missing from this test's pages").toEqual([]);
    await page.context().close();
  });

  for (const [screen, viewport] of [["a desktop", DESKTOP], ["a phone", PHONE]] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      it(`lays out every page on ${screen} in the ${colorScheme} theme, with nothing on the console`, async () => {
        const page = await viewer.signedIn("#/", { viewport, colorScheme });
        const found: string[] = [];
        for (const shown of pages) {
          await page.goto(viewer.url(shown.hash));
          await shown.open?.(page);
          await shown.drawn(page);
          found.push(...(await layoutProblems(page)).map((problem) => `${shown.name}: ${problem}`));
          if (SHOTS) {
            fs.mkdirSync(SHOTS, { recursive: true });
            await page.screenshot({ path: path.join(SHOTS, `${shown.name.replace(/\W+/g, "-")}-${viewport.width}-${colorScheme}.png`), fullPage: true });
          }
        }
        expect(found).toEqual([]);
        expect(consoleProblems(page)).toEqual([]);
        await page.context().close();
      });
    }
  }

  it("serves every page under a policy that allows no inline style or script", async () => {
    const response = await fetch(viewer.url(""));
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/style-src 'self';/);
    expect(policy).toMatch(/script-src 'self';/);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
  });
});
