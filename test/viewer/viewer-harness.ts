// What the browser tests of the web viewer share: Debian's Chromium driven by playwright-core
// against a real daemon on loopback TCP, browsers signed in through one-time links, what each
// page said on its console, and a check of its layout. .ci/run installs Chromium; where it is
// missing outside CI the tests are skipped and say so, and in CI they fail.
import fs from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { freePort, makeHome, REPO_ROOT, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { requirement } from "../helpers/requirement.js";

const CHROMIUM = process.env.MEMD_CHROMIUM ?? "/usr/bin/chromium";
/** Why the browser tests cannot run here, or "" when they can. */
export const chromiumMissing = requirement(
  fs.existsSync(CHROMIUM) ? "" : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set MEMD_CHROMIUM)`,
  ".ci/run installs Debian's chromium package as root",
);

/** Debian's Chromium, headless, as every browser test drives it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}

/** MEMD_SCREENSHOTS=docs writes docs/viewer.md's screenshots into docs/. */
export const SCREENSHOTS = process.env.MEMD_SCREENSHOTS === "docs" ? path.join(REPO_ROOT, "docs") : null;

export const DESKTOP = { width: 1280, height: 800 };
/** A phone's width (an iPhone 14's CSS pixels). */
export const PHONE = { width: 390, height: 844 };

export interface Viewer {
  daemon: TestDaemon;
  browser: Browser;
  port: number;
  /** Where approved skills are written: never the real ~/.claude. */
  claudeHome: string;
  /** A new browser signed in through a fresh one-time link, on the page at `hash`. */
  signedIn(hash?: string, options?: BrowserContextOptions): Promise<Page>;
  /** The address of a page of the viewer, for a browser already signed in. */
  url(hash: string): string;
  close(): Promise<void>;
}

/** A daemon listening on loopback TCP, and Chromium. */
export async function startViewer(): Promise<Viewer> {
  const port = await freePort();
  const claudeHome = makeHome();
  const daemon = await spawnDaemon({ args: ["--listen", `127.0.0.1:${port}`], env: { MEMD_CLAUDE_HOME: claudeHome } });
  const browser = await launchChromium();
  const url = (hash: string) => `http://127.0.0.1:${port}/ui/${hash}`;
  return {
    daemon,
    browser,
    port,
    claudeHome,
    url,
    async signedIn(hash = "#/", options = {}) {
      const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, colorScheme: "light", ...options });
      const page = await context.newPage();
      listen(page);
      await page.goto((await daemon.clients.viewer.openViewer({})).url);
      // Signed in once the page has heard from the daemon: the session is kept for the next page.
      await page.waitForFunction(() => performance.getEntriesByName("memd:usable").length > 0);
      await page.goto(url(hash));
      return page;
    },
    async close() {
      await browser.close();
      await daemon.stop();
      fs.rmSync(claudeHome, { recursive: true, force: true });
    },
  };
}

const heard = new WeakMap<Page, string[]>();

/** Keeps what the page says on its console that a person should never see: errors, warnings, uncaught exceptions, refused requests. */
function listen(page: Page): void {
  const said: string[] = [];
  heard.set(page, said);
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") said.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => said.push(`uncaught: ${error.message}`));
}

/** Errors and warnings the page logged since it was opened (a refused inline style, a warning from a library, a 404). */
export function consoleProblems(page: Page): string[] {
  return [...(heard.get(page) ?? [])];
}

/** Waits until the page watches memd's changes: every write from now on reaches it. */
export async function waitUntilLive(page: Page): Promise<void> {
  await page.locator('#live[data-state="live"]').waitFor();
}

/**
 * What is wrong with the layout of the page as drawn: the page scrolling sideways, an element
 * reaching past the viewport's edge (unless a box that scrolls sideways on its own holds it), a
 * control or a score bar taller than three lines, and an element taller than the viewport that is
 * neither text nor a container of several others. Each problem names the element.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document, innerHeight: height, getComputedStyle } = globalThis as unknown as PageWindow;
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    const name = (element: PageElement) =>
      `<${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${[...element.classList].map((c) => `.${c}`).join("")}> "${(element.textContent ?? "").trim().slice(0, 40)}"`;
    const clipsSideways = (element: PageElement) => ["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(element).overflowX);
    const insideScroller = (element: PageElement) => {
      for (let above = element.parentElement; above && above !== document.body; above = above.parentElement) if (clipsSideways(above)) return true;
      return false;
    };
    if (document.documentElement.scrollWidth > width) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide in a ${width} px viewport`);
    for (const element of document.body.querySelectorAll("*")) {
      if (!element.checkVisibility()) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if ((box.left < -1 || box.right > width + 1) && !insideScroller(element)) {
        problems.push(`${name(element)} reaches past the viewport's edge: ${Math.round(box.left)} to ${Math.round(box.right)} px of ${width}`);
      }
      const style = getComputedStyle(element);
      const line = Number.parseFloat(style.lineHeight) || 1.45 * Number.parseFloat(style.fontSize);
      if (element.matches('[role="meter"], .bar, button, input, nav a, #live') && box.height > 3 * line) {
        problems.push(`${name(element)} is ${Math.round(box.height)} px tall, more than three lines`);
      }
      const container = ["MAIN", "SECTION", "OL", "UL", "DL", "TABLE", "TBODY", "DIV", "FIGURE", "DETAILS"].includes(element.tagName) && element.childElementCount > 0;
      const text = element.childElementCount === 0 || ["P", "PRE", "LI", "DD"].includes(element.tagName);
      if (box.height > height && !container && !text) problems.push(`${name(element)} is ${Math.round(box.height)} px tall, taller than the ${height} px viewport`);
    }
    return problems;
  });
}

/** As much of the page's DOM as layoutProblems reads: this file is type-checked without the DOM's names. */
interface PageElement {
  tagName: string;
  id: string;
  classList: Iterable<string>;
  textContent: string | null;
  parentElement: PageElement | null;
  childElementCount: number;
  checkVisibility(): boolean;
  getBoundingClientRect(): { left: number; right: number; width: number; height: number };
  matches(selector: string): boolean;
}

interface PageWindow {
  document: { documentElement: PageElement & { clientWidth: number; scrollWidth: number }; body: PageElement & { querySelectorAll(selector: string): Iterable<PageElement> } };
  innerHeight: number;
  getComputedStyle(element: PageElement): { overflowX: string; lineHeight: string; fontSize: string };
}
