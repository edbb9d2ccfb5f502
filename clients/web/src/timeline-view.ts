import { admin } from "./daemon.js";
import { el } from "./dom.js";

/** The actions shown, in order, with the words a person reads for them. */
const COLUMNS: [string, string][] = [
  ["created", "saved"],
  ["updated", "edited"],
  ["reinforced", "reinforced"],
  ["promoted", "promoted"],
  ["rejected", "rejected"],
  ["superseded", "superseded"],
  ["consolidated", "consolidated"],
  ["archived", "archived"],
];
const DAYS = 30;

/** What happened to memories day by day, newest first: a table, with each day's total drawn as a bar. */
export async function renderTimeline(view: HTMLElement): Promise<void> {
  const { days } = await admin.timeline({ days: DAYS });
  const rows = days.map((d) => ({ day: d.day, counts: new Map(d.counts.map((c) => [c.key, Number(c.count)])) })).reverse();
  const totals = rows.map((r) => [...r.counts.values()].reduce((a, b) => a + b, 0));
  const most = Math.max(1, ...totals);
  const head = el("tr", {}, el("th", { text: "day", attrs: { scope: "col" } }), ...COLUMNS.map(([, label]) => el("th", { text: label, attrs: { scope: "col" } })), el("th", { text: "all", attrs: { scope: "col" } }));
  const body = rows.map((r, i) => {
    const bar = el("span", { className: "bar" }, el("span"));
    (bar.firstElementChild as HTMLElement).style.width = `${((100 * (totals[i] ?? 0)) / most).toFixed(1)}%`;
    return el(
      "tr",
      {},
      el("th", { text: r.day, attrs: { scope: "row" } }),
      ...COLUMNS.map(([key]) => el("td", { text: r.counts.get(key) ? String(r.counts.get(key)) : "" })),
      el("td", {}, bar, ` ${totals[i] ?? 0}`),
    );
  });
  view.replaceChildren(
    el("h2", { text: "Timeline" }),
    el("p", { className: "meta", text: `What happened to memories, day by day (UTC), the last ${DAYS} days, newest first.` }),
    // Scrolled sideways on its own on a narrow screen, rather than widening the page.
    el("div", { className: "wide" }, el("table", { className: "timeline-table" }, el("caption", { text: `Changes per day, the last ${DAYS} days` }), el("thead", {}, head), el("tbody", {}, ...body))),
  );
}
