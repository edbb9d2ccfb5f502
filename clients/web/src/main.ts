import { SearchMode } from "../../../gen/memd/v1/memory_service_pb.js";
import { admin, memory, signInFromLink } from "./daemon.js";
import { describe, showProblem } from "./dom.js";
import { renderFading } from "./fading-view.js";
import { renderGraph } from "./graph-view.js";
import { renderHealth } from "./health-view.js";
import { renderInjections } from "./injections-view.js";
import { renderMemory } from "./memory-view.js";
import { renderResults, renderSummary } from "./search-view.js";
import { renderSkills } from "./skills-view.js";
import { renderStaged } from "./staged-view.js";
import { renderTimeline } from "./timeline-view.js";

/**
 * The web viewer's page: search (#/), one memory (#/memory/<id>), the staged guesses
 * (#/staged), what happened day by day (#/timeline), a project's entity graph (#/graph/<project>), how memories fade (#/fading), the skill proposals (#/skills), what agents were told (#/injections, #/injections/<session>) and health (#/health),
 * each a view of the daemon's own API.
 */

/** How long typing must pause before a search is sent. */
const TYPING_PAUSE_MS = 120;

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const query = element<HTMLInputElement>("query");
const project = element<HTMLInputElement>("project");
const results = element<HTMLOListElement>("results");
const summary = element<HTMLParagraphElement>("summary");
const views = { search: element("search-view"), memory: element("memory-view"), staged: element("staged-view"), timeline: element("timeline-view"), graph: element("graph-view"), fading: element("fading-view"), skills: element("skills-view"), injections: element("injections-view"), health: element("health-view") };

let pending: AbortController | null = null;
let timer: number | undefined;

async function search(): Promise<void> {
  pending?.abort();
  const text = query.value.trim();
  if (text === "") {
    results.replaceChildren();
    summary.textContent = "";
    return;
  }
  const call = new AbortController();
  pending = call;
  const started = performance.now();
  try {
    const scope = project.value.trim();
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

/** Shows the view the address names. */
function route(): void {
  showProblem("");
  const [, page, id] = location.hash.split("/");
  const named: Record<string, HTMLElement> = { staged: views.staged, timeline: views.timeline, graph: views.graph, fading: views.fading, skills: views.skills, injections: views.injections, health: views.health };
  const shown = page === "memory" && id ? views.memory : (named[page ?? ""] ?? views.search);
  for (const view of Object.values(views)) view.hidden = view !== shown;
  const drawn =
    shown === views.memory
      ? renderMemory(views.memory, decodeURIComponent(id ?? ""))
      : shown === views.staged
        ? renderStaged(views.staged)
        : shown === views.timeline
          ? renderTimeline(views.timeline)
          : shown === views.graph
          ? renderGraph(views.graph, decodeURIComponent(id ?? ""))
          : shown === views.fading
          ? renderFading(views.fading)
          : shown === views.skills
          ? renderSkills(views.skills)
          : shown === views.injections
          ? renderInjections(views.injections, decodeURIComponent(id ?? ""))
          : shown === views.health
            ? renderHealth(views.health)
            : Promise.resolve();
  drawn.catch((error: unknown) => showProblem(describe(error)));
}

query.addEventListener("input", searchSoon);
project.addEventListener("input", searchSoon);
element<HTMLFormElement>("search").addEventListener("submit", (event) => {
  event.preventDefault();
  void search();
});
window.addEventListener("hashchange", route);

/** Signs in when the page was opened from a link, then draws the view and asks the daemon how it is. */
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
  try {
    const { health } = await admin.health({});
    element("health").textContent = health ? `memd ${health.version}, ${health.home}` : "";
    // The page is usable: it answers typing, and it has heard from the daemon.
    performance.mark("memd:usable");
  } catch (error) {
    element("health").textContent = `memd did not answer: ${describe(error)}`;
  }
}
void start();
