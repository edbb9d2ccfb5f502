// The viewer's Contradictions page in Chromium against a real daemon (viewer-harness.ts): two
// memories that say different things about the same subject are listed as a pair, settled in one
// click, and a pair found while the page is open appears without a reload. Where Chromium is
// missing outside CI the test is skipped and says so; in CI it fails. MEMD_SCREENSHOTS=docs
// writes docs/viewer.md's screenshot.
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ContradictionResolution } from "../../gen/memd/v1/contradiction_pb.js";
import { MemoryKind, MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { describeUnless } from "../helpers/skip-unless.js";
import { chromiumMissing, consoleProblems, DESKTOP, layoutProblems, PHONE, SCREENSHOTS, startViewer, type Viewer, waitUntilLive } from "./viewer-harness.js";

/** Generous: the page is drawn again well within a second of a commit; this only keeps a stuck page from hanging the suite. */
const ARRIVES = { timeout: 10_000 };

const CLERK = "Auth is Clerk, not custom JWT.";
const AUTH0 = "Auth moved to Auth0 last sprint; Clerk's pricing didn't work for us.";
const GRPC_OLD = "The gRPC server listens on port 50051.";
const GRPC_NEW = "The gRPC port is 9090 in all environments now.";

describeUnless(chromiumMissing, "the viewer's Contradictions page in Chromium", () => {
  let viewer: Viewer;
  let clerk: string;
  let auth0: string;

  beforeAll(async () => {
    viewer = await startViewer();
    const save = async (content: string) => (await viewer.daemon.clients.memory.save({ content, kind: MemoryKind.DECISION, project: "acme" })).memory?.id ?? "";
    clerk = await save(CLERK);
    auth0 = await save(AUTH0);
    await save(GRPC_OLD);
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it("lists the open pair with both memories, shows one found while it is open, and settles each pair in one click", async () => {
    const page = await viewer.signedIn("#/", { viewport: DESKTOP });
    await waitUntilLive(page);
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Contradictions" }).click();
    const pairs = page.getByRole("list", { name: "Open contradictions, newest first" }).locator(":scope > li");
    await expect.poll(() => pairs.count()).toBe(1);
    expect(await page.locator("#contradictions-view > .meta").textContent()).toMatch(/^1 open contradiction:/);
    const auth = pairs.filter({ hasText: CLERK });
    expect(await auth.locator("h3").textContent()).toBe("auth provider");
    const newer = auth.getByRole("group", { name: "Newer memory" });
    const older = auth.getByRole("group", { name: "Older memory" });
    expect(await newer.locator("h4").textContent()).toBe("Newer says: Auth0");
    expect(await newer.getByRole("link", { name: AUTH0 }).getAttribute("href")).toBe(`#/memory/${auth0}`);
    expect(await newer.locator(".meta").textContent()).toMatch(new RegExp(`^decision · acme · active · \\d{4}-\\d\\d-\\d\\d · ${auth0}$`));
    expect(await older.locator("h4").textContent()).toBe("Older says: Clerk");
    expect(await older.getByRole("link", { name: CLERK }).getAttribute("href")).toBe(`#/memory/${clerk}`);
    expect(await auth.locator(":scope > .meta").textContent()).toMatch(/^Found by a save at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(the rules, score \d\.\d\d\) · contradiction \d+$/);

    // Gone if the page were loaded again.
    await page.evaluate(() => Object.assign(globalThis, { memdNotReloaded: true }));
    const grpc = (await viewer.daemon.clients.memory.save({ content: GRPC_NEW, kind: MemoryKind.DECISION, project: "acme" })).memory?.id ?? "";
    await expect.poll(() => pairs.count(), ARRIVES).toBe(2);
    expect(await pairs.first().getByRole("group", { name: "Newer memory" }).getByRole("link").textContent()).toBe(GRPC_NEW);
    expect(await pairs.first().getAttribute("class")).toContain("fresh");
    expect(await pairs.first().getAttribute("data-memory-id")).toBe(grpc);
    expect(await page.evaluate(() => (globalThis as { memdNotReloaded?: boolean }).memdNotReloaded)).toBe(true);
    expect(await layoutProblems(page)).toEqual([]);
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, "viewer-contradictions.png"), fullPage: true, animations: "disabled" });

    await auth.getByRole("button", { name: "Keep the newer" }).click();
    await expect.poll(() => pairs.filter({ hasText: CLERK }).count()).toBe(0);
    expect(await pairs.count()).toBe(1);
    expect(await page.locator("#contradictions-view > .meta").textContent()).toMatch(/^1 open contradiction:/);
    expect((await viewer.daemon.clients.memory.get({ id: clerk })).memory).toMatchObject({ status: MemoryStatus.SUPERSEDED, supersededBy: auth0 });
    expect((await viewer.daemon.clients.memory.get({ id: auth0 })).memory?.status).toBe(MemoryStatus.ACTIVE);

    // Both hold: the pair leaves the list, and neither memory is superseded.
    const [{ id: grpcPair } = { id: 0 }] = (await viewer.daemon.clients.contradictions.listContradictions({})).contradictions;
    await pairs.first().getByRole("button", { name: "Both hold" }).click();
    await expect.poll(() => page.locator("#contradictions-view > .meta").textContent()).toMatch(/^nothing to settle/);
    expect(await pairs.count()).toBe(0);
    const [settled] = (await viewer.daemon.clients.contradictions.listContradictions({ includeSettled: true })).contradictions.filter((c) => c.id === grpcPair);
    expect(settled).toMatchObject({ resolution: ContradictionResolution.COMPATIBLE, memory: { status: MemoryStatus.ACTIVE }, other: { status: MemoryStatus.ACTIVE } });
    expect(await page.textContent("#problem")).toBe("");
    expect(consoleProblems(page)).toEqual([]);
    await page.context().close();
  });

  it("fits a phone's width in the dark theme", async () => {
    // A pair of its own: the test above settles the others.
    for (const content of ["Payments go through Stripe.", "Payments are processed by Adyen since the EU expansion."]) await viewer.daemon.clients.memory.save({ content, project: "acme" });
    const page = await viewer.signedIn("#/contradictions", { viewport: PHONE, colorScheme: "dark" });
    await page.getByRole("list", { name: "Open contradictions, newest first" }).locator(":scope > li").first().waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    expect(consoleProblems(page)).toEqual([]);
    await page.context().close();
  });
});
