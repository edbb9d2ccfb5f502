import type { Count } from "../../../gen/memd/v1/admin_service_pb.js";
import { EmbedderModelState, EmbedderState } from "../../../gen/memd/v1/memory_service_pb.js";
import { admin, vault } from "./daemon.js";
import { el, timeText } from "./dom.js";


/** The daemon, its embedder and queue, the vault, the last maintenance run, and the lifecycle ledger as a chart. */
export async function renderHealth(view: HTMLElement): Promise<void> {
  const [{ health }, stats, files] = await Promise.all([admin.health({}), admin.stats({}), vault.getVaultStatus({})]);
  const e = health?.embedder;
  const m = stats.lastMaintenance;
  view.replaceChildren(
    el("h2", { text: "Health" }),
    section("Daemon", [
      ["version", health?.version ?? "?"],
      ["up", health ? `${health.uptimeSeconds} s, pid ${health.pid}` : "?"],
      ["home", health?.home ?? "?"],
      ["memories", `${stats.total}, ${(Number(stats.databaseBytes) / 1048576).toFixed(1)} MiB on disk, schema ${stats.schemaVersion}`],
    ]),
    section("Embedder", [
      ["model", e && e.provider !== "none" && e.provider !== "" ? `${e.provider} ${e.model} (${e.dimensions} dimensions)` : `none: ${e?.reason || "keyword search only"}`],
      ["state", e && e.state !== EmbedderState.UNSPECIFIED ? (EmbedderState[e.state] ?? "").toLowerCase() + (e.reindexing ? ", reindexing" : "") : "-"],
      ["model in memory", e ? modelState(e.modelState, e.failedLoads) : "?"],
      ["load error", e?.loadError || "-"],
      ["queue", e ? `${e.queueDepth} waiting` : "?"],
      ["last error", e?.lastError || "-"],
    ]),
    section(
      "Vault",
      files.enabled
        ? [
            ["folder", files.dir],
            ["files", `${files.files}, ${files.pending} waiting to be written`],
            ["last write", timeText(files.lastWriteTime, "none yet")],
            ["not read", files.unreadable.length === 0 ? "-" : files.unreadable.map((p) => `${p.path}${p.line ? `:${p.line}` : ""}: ${p.reason}`).join("; ")],
            ["left alone", files.held.length === 0 ? "-" : files.held.map((p) => p.path).join("; ")],
          ]
        : [["vault", "off (--no-vault)"]],
    ),
    section("Last maintenance", [
      ["when", m ? `${timeText(m.endTime, "none yet")} (${m.trigger})` : "none since memd started"],
      ["changed", m ? (m.error ? `failed: ${m.error}` : `${m.consolidated} clusters merged, ${m.archived} memories archived`) : "-"],
    ]),
    el("h3", { text: "Lifecycle ledger" }),
    ledgerChart(stats.ledger),
  );
}

/** Whether the embedder's model is loaded, in words; a model held by another process (Ollama, OpenAI) is not memd's to load. */
function modelState(state: EmbedderModelState, failedLoads: number): string {
  switch (state) {
    case EmbedderModelState.UNLOADED:
      return "no: loads on the next embedding (unloaded when idle)";
    case EmbedderModelState.LOADING:
      return "loading";
    case EmbedderModelState.LOADED:
      return "yes";
    case EmbedderModelState.FAILED:
      return `no: the last ${failedLoads === 1 ? "load" : `${failedLoads} loads`} failed; tried again soon`;
    default:
      return "held by its own server";
  }
}

function section(title: string, rows: [string, string][]): HTMLElement {
  return el(
    "section",
    { attrs: { "aria-label": title } },
    el("h3", { text: title }),
    el("dl", { className: "fields" }, ...rows.flatMap(([term, value]) => [el("dt", { text: term }), el("dd", { text: value })])),
  );
}

/**
 * The ledger's counts as horizontal bars: a dozen labelled bars need no charting library, and as
 * HTML their labels stay legible at a phone's width, where an SVG scaled down its text. The
 * numbers are in the labels and in the chart's text alternative too.
 */
function ledgerChart(ledger: readonly Count[]): HTMLElement {
  const max = Math.max(1, ...ledger.map((c) => Number(c.count)));
  return el(
    "dl",
    { className: "ledger", attrs: { role: "img", "aria-label": `Lifecycle ledger: ${ledger.map((c) => `${c.key} ${c.count}`).join(", ")}` } },
    ...ledger.flatMap((c) => {
      const fill = el("span");
      // Through the CSSOM: the page's Content-Security-Policy refuses inline style attributes.
      fill.style.width = `${((100 * Number(c.count)) / max).toFixed(1)}%`;
      return [el("dt", { text: c.key }), el("dd", { className: "bar", attrs: { "data-key": c.key } }, fill), el("dd", { className: "value", text: String(c.count) })];
    }),
  );
}
