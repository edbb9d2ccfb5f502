import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AdminService } from "../../../gen/memd/v1/admin_service_pb.js";
import { MemoryService, SearchMode } from "../../../gen/memd/v1/memory_service_pb.js";
import { renderResults, renderSummary } from "./search-view.js";

/**
 * The web viewer's page. It calls the daemon's own Connect API on the origin it was served from;
 * the browser signs each call with the viewer's session cookie, and nothing here decides what
 * the daemon decides.
 */
const transport = createConnectTransport({ baseUrl: location.origin });
const memory = createClient(MemoryService, transport);
const admin = createClient(AdminService, transport);

/** How long typing must pause before a search is sent. */
const TYPING_PAUSE_MS = 120;

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const query = element<HTMLInputElement>("query");
const project = element<HTMLInputElement>("project");
const results = element<HTMLOListElement>("results");
const summary = element<HTMLParagraphElement>("summary");

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
    summary.textContent = `memd did not answer: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function searchSoon(): void {
  window.clearTimeout(timer);
  timer = window.setTimeout(() => void search(), TYPING_PAUSE_MS);
}

query.addEventListener("input", searchSoon);
project.addEventListener("input", searchSoon);
element<HTMLFormElement>("search").addEventListener("submit", (event) => {
  event.preventDefault();
  void search();
});

admin
  .health({})
  .then(({ health }) => {
    element("health").textContent = health ? `memd ${health.version}, ${health.home}` : "";
    // The page is usable: it answers typing, and it has heard from the daemon.
    performance.mark("memd:usable");
  })
  .catch((error: unknown) => {
    element("health").textContent = `memd did not answer: ${error instanceof Error ? error.message : String(error)}`;
  });
