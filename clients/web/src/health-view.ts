import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Count } from "../../../gen/memd/v1/admin_service_pb.js";
import { EmbedderState } from "../../../gen/memd/v1/memory_service_pb.js";
import { admin, vault } from "./daemon.js";
import { el } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const time = (t: Timestamp | undefined) => (t ? timestampDate(t).toISOString().replace("T", " ").slice(0, 19) : "none yet");

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
      ["queue", e ? `${e.queueDepth} waiting` : "?"],
      ["last error", e?.lastError || "-"],
    ]),
    section(
      "Vault",
      files.enabled
        ? [
            ["folder", files.dir],
            ["files", `${files.files}, ${files.pending} waiting to be written`],
            ["last write", time(files.lastWriteTime)],
            ["not read", files.unreadable.length === 0 ? "-" : files.unreadable.map((p) => `${p.path}${p.line ? `:${p.line}` : ""}: ${p.reason}`).join("; ")],
            ["left alone", files.held.length === 0 ? "-" : files.held.map((p) => p.path).join("; ")],
          ]
        : [["vault", "off (--no-vault)"]],
    ),
    section("Last maintenance", [
      ["when", m ? `${time(m.endTime)} (${m.trigger})` : "none since memd started"],
      ["changed", m ? (m.error ? `failed: ${m.error}` : `${m.consolidated} clusters merged, ${m.archived} memories archived`) : "-"],
    ]),
    el("h3", { text: "Lifecycle ledger" }),
    ledgerChart(stats.ledger),
  );
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
 * The ledger's counts as horizontal bars, drawn as SVG by hand: a dozen labelled bars need no
 * charting library. The numbers are in the labels and in the chart's text alternative too.
 */
function ledgerChart(ledger: readonly Count[]): SVGSVGElement {
  const rowHeight = 22;
  const labelWidth = 110;
  const width = 640;
  const max = Math.max(1, ...ledger.map((c) => Number(c.count)));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${ledger.length * rowHeight}`);
  svg.setAttribute("class", "ledger");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Lifecycle ledger: ${ledger.map((c) => `${c.key} ${c.count}`).join(", ")}`);
  ledger.forEach((c, i) => {
    const y = i * rowHeight;
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", "0");
    label.setAttribute("y", String(y + 15));
    label.textContent = c.key;
    const bar = document.createElementNS(SVG, "rect");
    bar.setAttribute("x", String(labelWidth));
    bar.setAttribute("y", String(y + 4));
    bar.setAttribute("height", "14");
    bar.setAttribute("rx", "3");
    bar.setAttribute("width", String(((width - labelWidth - 60) * Number(c.count)) / max));
    bar.setAttribute("data-key", c.key);
    const value = document.createElementNS(SVG, "text");
    value.setAttribute("x", String(width - 50));
    value.setAttribute("y", String(y + 15));
    value.textContent = String(c.count);
    svg.append(label, bar, value);
  });
  return svg;
}
