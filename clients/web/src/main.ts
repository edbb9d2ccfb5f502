import { type RecordChange, RecordKind } from "../../../gen/memd/v1/change_service_pb.js";
import { MemoryStatus } from "../../../gen/memd/v1/memory_pb.js";
import { SearchMode } from "../../../gen/memd/v1/memory_service_pb.js";
import { admin, memory, signInFromLink } from "./daemon.js";
import { renderContradictions } from "./contradictions-view.js";
import { describe, showProblem, SIGNED_OUT } from "./dom.js";
import { renderFading } from "./fading-view.js";
import { renderGraph } from "./graph-view.js";
import { renderHealth } from "./health-view.js";
import { renderInjections } from "./injections-view.js";
import { type LiveState, watchChanges } from "./live.js";
import { renderMemory } from "./memory-view.js";
import { renderLatest, renderResults, renderSummary } from "./search-view.js";
import { renderSkills } from "./skills-view.js";
import { renderStaged } from "./staged-view.js";
import { renderTimeline } from "./timeline-view.js";

/**
 * The web viewer's page: search (#/), one memory (#/memory/<id>), the staged guesses
 * (#/staged), the contradictions waiting for a decision (#/contradictions), what happened day by day (#/timeline), a project's entity graph (#/graph/<project>),
 * how memories fade (#/fading), the skill proposals (#/skills), what agents were told
 * (#/injections, #/injections/<session>) and health (#/health), each a view of the daemon's own
 * API, drawn again as memd changes what it shows (live.ts).
 */

/** How long typing must pause before a search is sent. */
const TYPING_PAUSE_MS = 120;
/** How many of the latest memories the search page shows while nothing is typed. */
const LATEST = 20;

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const query = element<HTMLInputElement>("query");
const project = element<HTMLInputElement>("project");
const results = element<HTMLOListElement>("results");
const summary = element<HTMLParagraphElement>("summary");
const live = element("live");

const isMemory = (c: RecordChange) => c.kind === RecordKind.MEMORY;

/** One page of the viewer: where it is drawn, how, and which committed changes make what it shows out of date. */
interface Page {
  view: HTMLElement;
  /** Draws the page; `id` is what the address names after the page (a memory id, a project). */
  draw(view: HTMLElement, id: string): Promise<void>;
  wants(change: RecordChange, id: string): boolean;
}

/** The pages by the first part of the address (#/<page>/<id>). A page that shows a new kind of record says so in `wants`. */
const PAGES: Record<string, Page> = {
  "": { view: element("search-view"), draw: () => search(), wants: isMemory },
  memory: { view: element("memory-view"), draw: renderMemory, wants: (c, id) => c.memoryId === id },
  staged: { view: element("staged-view"), draw: renderStaged, wants: isMemory },
  // A contradiction is found by a write of a memory, and settling one supersedes a memory (keeping both changes neither).
  contradictions: { view: element("contradictions-view"), draw: renderContradictions, wants: (c) => isMemory(c) || c.kind === RecordKind.MEMORY_EVENT },
  timeline: { view: element("timeline-view"), draw: renderTimeline, wants: (c) => c.kind === RecordKind.MEMORY_EVENT },
  graph: { view: element("graph-view"), draw: renderGraph, wants: (c, name) => isMemory(c) && c.project === name },
  fading: { view: element("fading-view"), draw: renderFading, wants: isMemory },
  skills: { view: element("skills-view"), draw: renderSkills, wants: isMemory },
  injections: { view: element("injections-view"), draw: renderInjections, wants: (c) => c.kind === RecordKind.INJECTION },
  health: { view: element("health-view"), draw: renderHealth, wants: () => true },
};

let pending: AbortController | null = null;
let timer: number | undefined;

/** The search page: the results for what is typed, or the latest memories while nothing is. */
async function search(): Promise<void> {
  pending?.abort();
  const call = new AbortController();
  pending = call;
  const text = query.value.trim();
  const started = performance.now();
  try {
    const scope = project.value.trim();
    if (text === "") {
      const { memories } = await memory.list({ projects: scope === "" ? [] : [scope], statuses: [MemoryStatus.ACTIVE, MemoryStatus.STAGED], pageSize: LATEST }, { signal: call.signal });
      if (!call.signal.aborted) renderLatest(results, summary, memories);
      return;
    }
    const res = await memory.search({ query: text, project: scope, allProjects: scope === "", mode: SearchMode.HYBRID, explain: true, limit: 20 }, { signal: call.signal });
    if (call.signal.aborted) return;
    renderResults(results, res.results);
    renderSummary(summary, res, performance.now() - started);
    // From the search sent to its results drawn; the viewer's benchmark reads these (bench/viewer-latency.ts).
    performance.measure("memd:search", { start: started, end: performance.now() });
  } catch (error) {
    if (call.signal.aborted) return;
    summary.textContent = `memd did not answer: ${describe(error)}`;
  }
}

function searchSoon(): void {
  window.clearTimeout(timer);
  timer = window.setTimeout(() => void search(), TYPING_PAUSE_MS);
}

/** The page the address names, and the id after it. */
function addressed(): { page: Page; id: string } {
  const [, name = "", id = ""] = location.hash.split("/");
  const page = name === "memory" && id === "" ? undefined : PAGES[name];
  return { page: page ?? (PAGES[""] as Page), id: decodeURIComponent(id) };
}

/** Shows the view the address names. */
function route(): void {
  showProblem("");
  const { page, id } = addressed();
  for (const other of Object.values(PAGES)) other.view.hidden = other !== page;
  redrawWanted = false;
  fresh.clear();
  if (live.dataset.state === "live") setLive("live");
  page.draw(page.view, id).catch((error: unknown) => showProblem(describe(error)));
}

let drawing: Promise<void> | null = null;
let redrawWanted = false;
/** Memories changed since the view was last drawn: marked when it is drawn again. */
const fresh = new Set<string>();

/**
 * Draws the shown view again for changes it wants, one drawing at a time, and marks the memories
 * that changed. A view holding an edit not yet saved is left alone until the edit is saved or
 * the page is left: drawing it again would throw the person's text away.
 */
function redraw(): void {
  redrawWanted = true;
  if (drawing) return;
  const { page, id } = addressed();
  if (holdsUnsavedInput(page.view)) {
    setLive("live", "live · changes wait for your edit");
    return;
  }
  redrawWanted = false;
  if (live.dataset.state === "live") setLive("live");
  const marked = [...fresh];
  fresh.clear();
  drawing = page
    .draw(page.view, id)
    .then(() => {
      for (const item of page.view.querySelectorAll<HTMLElement>("[data-memory-id]")) if (marked.includes(item.dataset.memoryId ?? "")) item.classList.add("fresh");
      // Drawn with what memd had at this moment; the browser tests wait for this.
      performance.mark("memd:redrawn");
    })
    .catch((error: unknown) => showProblem(describe(error)))
    .finally(() => {
      drawing = null;
      if (redrawWanted) redraw();
    });
}

/** True while a field of the view holds an edit not yet saved (a query typed into a search form is no edit). */
function holdsUnsavedInput(view: HTMLElement): boolean {
  return [...view.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")].some((field) => field.value !== field.defaultValue && !field.closest('form[role="search"]'));
}

function setLive(state: LiveState, text: string = state === "signed-out" ? "signed out" : state): void {
  live.dataset.state = state;
  live.textContent = text;
}

// A view an action drew again (memory-view.ts draws itself after a save) may now take the changes held back for an edit.
for (const page of Object.values(PAGES)) {
  new MutationObserver(() => {
    if (redrawWanted && drawing === null) redraw();
  }).observe(page.view, { childList: true });
}

query.addEventListener("input", searchSoon);
project.addEventListener("input", searchSoon);
element<HTMLFormElement>("search").addEventListener("submit", (event) => {
  event.preventDefault();
  void search();
});
window.addEventListener("hashchange", route);

/** Signs in when the page was opened from a link, draws the view, asks the daemon how it is, and watches what changes. */
async function start(): Promise<void> {
  let signIn = "";
  try {
    await signInFromLink();
  } catch (error) {
    signIn = describe(error);
  }
  route();
  // After route(), which clears the line for the view it draws.
  if (signIn !== "") showProblem(signIn);
  let usable = false;
  try {
    const { health } = await admin.health({});
    element("health").textContent = health ? `memd ${health.version}, ${health.home}` : "";
    // The page is usable: it answers typing, and it has heard from the daemon.
    performance.mark("memd:usable");
    usable = true;
  } catch (error) {
    element("health").textContent = `memd did not answer: ${describe(error)}`;
  }
  void watchChanges({
    state(state) {
      setLive(state);
      // Said where the person looks, unless the line under the title says it already.
      if (state === "signed-out" && usable) showProblem(SIGNED_OUT);
    },
    changed(changes, missed) {
      const { page, id } = addressed();
      const wanted = changes.filter((change) => page.wants(change, id));
      for (const change of wanted) if (change.memoryId !== "") fresh.add(change.memoryId);
      if (missed || wanted.length > 0) redraw();
    },
  });
}
void start();
