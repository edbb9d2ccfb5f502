import type { Memory } from "../../../gen/memd/v1/memory_pb.js";
import type { SearchResponse, SearchResult } from "../../../gen/memd/v1/memory_service_pb.js";
import { el } from "./dom.js";
import { explainBars } from "./explain-bars.js";
import { contentLink, memoryMeta } from "./memory-summary.js";

/** The results as a list, each with its content, what it is, and its score drawn part by part. */
export function renderResults(list: HTMLOListElement, found: readonly SearchResult[]): void {
  const explanations = found.flatMap((r) => (r.explanation ? [r.explanation] : []));
  list.replaceChildren(
    ...found.map((result) => {
      const item = memoryItem(result.memory);
      if (result.explanation) item.append(explainList(result.explanation, explanations, result.score));
      return item;
    }),
  );
}

/** The latest memories, newest first, shown while nothing is typed: what the agent saves appears here as it happens. */
export function renderLatest(list: HTMLOListElement, line: HTMLElement, memories: readonly Memory[]): void {
  list.replaceChildren(...memories.map(memoryItem));
  line.textContent = memories.length === 0 ? "no memories yet: they appear here as they are saved" : `the latest ${memories.length === 1 ? "memory" : `${memories.length} memories`}, newest first; new ones appear as they are saved`;
}

export function renderSummary(line: HTMLElement, res: SearchResponse, ms: number): void {
  const count = res.results.length === 1 ? "1 memory" : `${res.results.length} memories`;
  const skipped = res.vectorsSkipped ? `; without vectors: ${res.vectorsSkipped}` : "";
  line.textContent = `${count} in ${Math.round(ms)} ms, ${res.project === "" ? "all projects" : res.project}${skipped}`;
}

/** One memory in a list: its content as a link to its page, and what it is. */
function memoryItem(m: Memory | undefined): HTMLLIElement {
  return el("li", { attrs: { "data-memory-id": m?.id ?? "" } }, ...(m ? [contentLink(m), memoryMeta(m)] : []));
}

function explainList(explanation: NonNullable<SearchResult["explanation"]>, all: NonNullable<SearchResult["explanation"]>[], score: number): HTMLDListElement {
  const list = el("dl", { className: "explain", attrs: { "aria-label": `score ${score.toFixed(3)}, part by part` } });
  for (const bar of explainBars(explanation, all)) {
    const fill = el("span");
    // Through the CSSOM: the page's Content-Security-Policy refuses inline style attributes.
    fill.style.width = `${(bar.fraction * 100).toFixed(1)}%`;
    list.append(
      el("dt", { text: bar.label }),
      // Coloured by its data-source, not by a class named after the source: a bare "graph" class is too easily another box's.
      el("dd", { className: "bar", attrs: { "data-source": bar.source, role: "meter", "aria-label": bar.label, "aria-valuemin": "0", "aria-valuemax": "1", "aria-valuenow": bar.fraction.toFixed(2) } }, fill),
      el("dd", { className: "value", text: bar.text }),
    );
  }
  return list;
}
