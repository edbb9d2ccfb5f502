import type { DecayCurve } from "../../../gen/memd/v1/admin_service_pb.js";
import { MemoryKind } from "../../../gen/memd/v1/memory_pb.js";
import { admin } from "./daemon.js";
import { el, svgEl } from "./dom.js";

const DAYS = 365;

/**
 * How memories fade: each kind's decay weight over a year, as the daemon computes it, and what
 * the next maintenance run would archive and merge (its dry runs, which change nothing).
 */
export async function renderFading(view: HTMLElement): Promise<void> {
  const [decay, clean, consolidate] = await Promise.all([
    admin.describeDecay({ days: DAYS }),
    admin.clean({ dryRun: true }),
    admin.consolidate({ dryRun: true }),
  ]);
  view.replaceChildren(
    el("h2", { text: "Fading" }),
    el("p", { className: "meta", text: `Decay weight over ${DAYS} days since a memory was last reinforced, at confidence ${decay.confidence} and importance 3; maintenance archives what falls low enough.` }),
    curveChart(decay.curves),
    el("h3", { text: "The next maintenance run would archive" }),
    el(
      "ol",
      { attrs: { "aria-label": "Would be archived" } },
      ...(clean.archived.length === 0
        ? [el("li", { text: "nothing" })]
        : clean.archived.map((a) => el("li", {}, el("a", { text: a.memoryId, attrs: { href: `#/memory/${a.memoryId}` } }), ` ${a.reason}${a.relatedId ? ` of ${a.relatedId}` : ""}`))),
    ),
    el("h3", { text: "and would merge" }),
    el(
      "ol",
      { attrs: { "aria-label": "Would be merged" } },
      ...(consolidate.consolidations.length === 0
        ? [el("li", { text: "nothing (merging needs vectors: an embedder)" })]
        : consolidate.consolidations.map((c) => el("li", { text: `${c.originalIds.join(", ")} into one: ${c.memory?.content.slice(0, 160) ?? ""}` }))),
    ),
  );
}

/** One line per kind, weight 1 at the top to 0 at the bottom, with a legend; hand-drawn SVG. */
function curveChart(curves: readonly DecayCurve[]): HTMLElement {
  const width = 640;
  const height = 240;
  const svg = svgEl("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "curves",
    role: "img",
    "aria-label": `Decay by kind: ${curves.map((c) => `${kindName(c.kind)} ${halfLife(c)}, ${percent(c.weights.at(-1))} left after a year`).join("; ")}`,
  });
  curves.forEach((curve, i) => {
    const last = Math.max(1, curve.weights.length - 1);
    const points = curve.weights.map((w, day) => `${((day / last) * width).toFixed(1)},${((1 - w) * (height - 4) + 2).toFixed(1)}`).join(" ");
    const line = svgEl("polyline", { points, "data-kind": kindName(curve.kind) });
    // Through the CSSOM: the page's Content-Security-Policy refuses inline style attributes.
    line.style.stroke = colour(i);
    svg.append(line);
  });
  const legend = el(
    "ul",
    { className: "legend", attrs: { "aria-label": "Kinds" } },
    ...curves.map((curve, i) => {
      const swatch = el("span", { className: "swatch" });
      swatch.style.background = colour(i);
      return el("li", {}, swatch, `${kindName(curve.kind)}: ${halfLife(curve)}, ${percent(curve.weights.at(-1))} after a year`);
    }),
  );
  return el("figure", {}, svg, legend);
}

function halfLife(curve: DecayCurve): string {
  return Number.isFinite(curve.halfLifeDays) ? `half-life ${curve.halfLifeDays} days` : "no half-life (it does not fade)";
}

/** Ten kinds, ten hues apart. */
function colour(i: number): string {
  return `hsl(${(i * 36) % 360} 65% 50%)`;
}

function kindName(kind: MemoryKind): string {
  return (MemoryKind[kind] ?? String(kind)).toLowerCase();
}

function percent(weight: number | undefined): string {
  return `${Math.round((weight ?? 0) * 100)}%`;
}
