import cytoscape from "cytoscape";
import type { GraphResponse } from "../../../gen/memd/v1/memory_service_pb.js";
import { MemoryKind } from "../../../gen/memd/v1/memory_pb.js";
import { memory as memories } from "./daemon.js";
import { el } from "./dom.js";

/**
 * A project's entity graph: its recent memories and the entities (identifiers, paths, error
 * codes) that link them, laid out by cytoscape.js. The same graph is listed as text beside it,
 * entity by entity, for the keyboard and for screen readers.
 */
export async function renderGraph(view: HTMLElement, project: string): Promise<void> {
  const form = el("form", { attrs: { role: "search" } });
  const field = el("input", { attrs: { id: "graph-project", type: "text", autocomplete: "off", spellcheck: "false" } });
  field.defaultValue = project;
  form.append(el("label", { text: "Project", attrs: { for: "graph-project" } }), field);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = `#/graph/${encodeURIComponent(field.value.trim())}`;
  });
  if (project === "") {
    view.replaceChildren(el("h2", { text: "Entity graph" }), form, el("p", { className: "meta", text: "Name a project to draw its memories and the entities that link them." }));
    return;
  }
  const graph = await memories.graph({ project, limit: 200 });
  const summary = el("p", { className: "meta", text: `${graph.project}: ${graph.memories.length} recent memories, ${graph.entities.length} entities that link two or more of them` });
  if (graph.links.length === 0) {
    view.replaceChildren(el("h2", { text: "Entity graph" }), form, summary, el("p", { text: "Nothing to draw yet: no identifier, path or error code is named by two of these memories." }));
    return;
  }
  const canvas = el("div", { className: "entity-graph", attrs: { role: "img", "aria-label": "The entity graph (listed below as text)" } });
  view.replaceChildren(el("h2", { text: "Entity graph" }), form, summary, canvas, el("h3", { text: "As text" }), listing(graph));
  draw(canvas, graph);
}

/**
 * Lays the graph out with cytoscape.js, in the page's own colours (light or dark). Cytoscape would
 * put a <style> element in the page to make its container position: relative, which the page's
 * Content-Security-Policy refuses: index.html gives app.css's <link> the id cytoscape looks for
 * first, and app.css holds that rule. Everything else cytoscape sets through the CSSOM, which the
 * policy allows.
 */
function draw(container: HTMLElement, graph: GraphResponse): void {
  const linked = new Set(graph.links.map((l) => l.memoryId));
  const colour = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  cytoscape({
    container,
    elements: [
      ...graph.memories.filter((m) => linked.has(m.id)).map((m) => ({ data: { id: `m:${m.id}`, label: m.content.slice(0, 48), kind: "memory" } })),
      ...graph.entities.map((e) => ({ data: { id: `e:${e.key}`, label: e.key, kind: "entity" } })),
      ...graph.links.map((l) => ({ data: { id: `${l.memoryId}>${l.entityKey}`, source: `m:${l.memoryId}`, target: `e:${l.entityKey}` } })),
    ],
    layout: { name: "cose", animate: false, idealEdgeLength: () => 90, nodeRepulsion: () => 200_000 },
    // A few nodes fitted to the box would be drawn with letters an inch high.
    maxZoom: 1.5,
    style: [
      { selector: "node", style: { label: "data(label)", color: colour("--fg"), "font-size": 9, "text-wrap": "ellipsis", "text-max-width": "120px" } },
      { selector: 'node[kind = "memory"]', style: { "background-color": colour("--keyword"), width: 12, height: 12 } },
      { selector: 'node[kind = "entity"]', style: { "background-color": colour("--graph"), shape: "round-rectangle", width: 16, height: 16 } },
      { selector: "edge", style: { width: 1, "line-color": colour("--muted") } },
    ],
  });
}

/** Each entity with the memories that name it, each a link to its page. */
function listing(graph: GraphResponse): HTMLElement {
  const byId = new Map(graph.memories.map((m) => [m.id, m]));
  return el(
    "ul",
    { className: "entities", attrs: { "aria-label": "Entities and the memories they link" } },
    ...graph.entities.map((entity) =>
      el(
        "li",
        {},
        el("strong", { text: entity.key }),
        ` (${entity.type}): `,
        ...graph.links
          .filter((l) => l.entityKey === entity.key)
          .flatMap((l, i) => {
            const m = byId.get(l.memoryId);
            const link = el("a", { text: m ? `${(MemoryKind[m.kind] ?? "").toLowerCase()}: ${m.content.slice(0, 80)}` : l.memoryId, attrs: { href: `#/memory/${l.memoryId}` } });
            return i === 0 ? [link] : ["; ", link];
          }),
      ),
    ),
  );
}
