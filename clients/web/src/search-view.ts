import { timestampDate } from "@bufbuild/protobuf/wkt";
import { MemoryKind, MemoryStatus } from "../../../gen/memd/v1/memory_pb.js";
import type { SearchResponse, SearchResult } from "../../../gen/memd/v1/memory_service_pb.js";
import { explainBars } from "./explain-bars.js";

/** The results as a list, each with its content, what it is, and its score drawn part by part. */
export function renderResults(list: HTMLOListElement, found: readonly SearchResult[]): void {
  const explanations = found.flatMap((r) => (r.explanation ? [r.explanation] : []));
  list.replaceChildren(
    ...found.map((result) => {
      const item = document.createElement("li");
      const m = result.memory;
      const content = document.createElement("p");
      content.className = "content";
      const link = document.createElement("a");
      link.href = `#/memory/${m?.id ?? ""}`;
      link.textContent = m?.content ?? "";
      content.append(link);
      const meta = document.createElement("p");
      meta.className = "meta";
      meta.textContent = m
        ? [MemoryKind[m.kind]?.toLowerCase(), m.project, MemoryStatus[m.status]?.toLowerCase(), m.createTime ? timestampDate(m.createTime).toISOString().slice(0, 10) : "", m.id].filter(Boolean).join(" · ")
        : "";
      item.append(content, meta);
      if (result.explanation) item.append(explainList(result.explanation, explanations, result.score));
      return item;
    }),
  );
}

export function renderSummary(line: HTMLElement, res: SearchResponse, ms: number): void {
  const count = res.results.length === 1 ? "1 memory" : `${res.results.length} memories`;
  const skipped = res.vectorsSkipped ? `; without vectors: ${res.vectorsSkipped}` : "";
  line.textContent = `${count} in ${Math.round(ms)} ms, ${res.project === "" ? "all projects" : res.project}${skipped}`;
}

function explainList(explanation: NonNullable<SearchResult["explanation"]>, all: NonNullable<SearchResult["explanation"]>[], score: number): HTMLDListElement {
  const list = document.createElement("dl");
  list.className = "explain";
  list.setAttribute("aria-label", `score ${score.toFixed(3)}, part by part`);
  for (const bar of explainBars(explanation, all)) {
    const term = document.createElement("dt");
    term.textContent = bar.label;
    const drawn = document.createElement("dd");
    drawn.className = `bar ${bar.source}`;
    drawn.setAttribute("role", "meter");
    drawn.setAttribute("aria-label", bar.label);
    drawn.setAttribute("aria-valuemin", "0");
    drawn.setAttribute("aria-valuemax", "1");
    drawn.setAttribute("aria-valuenow", bar.fraction.toFixed(2));
    const fill = document.createElement("span");
    fill.style.width = `${(bar.fraction * 100).toFixed(1)}%`;
    drawn.append(fill);
    const value = document.createElement("dd");
    value.className = "value";
    value.textContent = bar.text;
    list.append(term, drawn, value);
  }
  return list;
}
