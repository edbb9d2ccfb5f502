import { type Injection, InjectionKind, type InjectionSession, type InjectionTotals } from "../../../gen/memd/v1/injection_service_pb.js";
import { MemoryKind } from "../../../gen/memd/v1/memory_pb.js";
import { injections } from "./daemon.js";
import { el, timeText } from "./dom.js";

/** The daemon's default window for the totals and the sessions, as the page says it. */
const DAYS = 30;
/** The sessions listed on the overview. */
const SESSIONS = 100;
/** A session's records read for its timeline, newest first (then shown oldest first). */
const SESSION_RECORDS = 1000;

const kindName = (kind: MemoryKind) => (MemoryKind[kind] ?? "").toLowerCase();
const sessionHref = (id: string) => `#/injections/${encodeURIComponent(id)}`;

/**
 * What memd told agents: totals per day and agent (injections, tokens, prompts that got nothing),
 * the sessions, and, for one session (#/injections/<session>), a timeline of each briefing,
 * prompt's pointers and recall, with its memories, why each was given, and its tokens.
 */
export async function renderInjections(view: HTMLElement, sessionId: string): Promise<void> {
  if (sessionId !== "") return renderSession(view, sessionId);
  // Both default to the daemon's last 30 days.
  const [{ totals }, { sessions }] = await Promise.all([injections.summarizeInjections({}), injections.listInjectionSessions({ pageSize: SESSIONS })]);
  view.replaceChildren(
    el("h2", { text: "Injections" }),
    el("p", { className: "meta", text: `What memd put into agents' contexts: briefings, prompts' pointers (and the prompts that got none) and recalls, the last ${DAYS} days (UTC), newest first. Tokens are counted with o200k_base.` }),
    totalsTable(totals),
    el("h3", { text: "Sessions" }),
    sessions.length === 0 ? el("p", { className: "meta", text: "no session was given anything yet" }) : sessionsTable(sessions),
  );
}

function totalsTable(totals: readonly InjectionTotals[]): HTMLElement {
  if (totals.length === 0) return el("p", { className: "meta", text: "nothing recorded in these days" });
  const most = Math.max(1, ...totals.map((t) => Number(t.tokens)));
  const columns = ["day", "agent", "injections", "tokens", "briefings", "prompts", "nothing injected", "recalls"];
  const rows = totals.map((t) => {
    const bar = el("span", { className: "bar total" }, el("span"));
    (bar.firstElementChild as HTMLElement).style.width = `${((100 * Number(t.tokens)) / most).toFixed(1)}%`;
    return el(
      "tr",
      {},
      el("th", { text: t.day, attrs: { scope: "row" } }),
      el("td", { text: t.agent || "-" }),
      el("td", { text: String(t.injections) }),
      el("td", {}, bar, ` ${t.tokens}`),
      el("td", { text: String(t.briefings) }),
      el("td", { text: String(t.prompts) }),
      el("td", { text: String(t.emptyPrompts) }),
      el("td", { text: String(t.recalls) }),
    );
  });
  return scrolling(
    "table",
    { className: "timeline-table" },
    el("caption", { text: "Per UTC day and agent" }),
    el("thead", {}, el("tr", {}, ...columns.map((c) => el("th", { text: c, attrs: { scope: "col" } })))),
    el("tbody", {}, ...rows),
  );
}

function sessionsTable(sessions: readonly InjectionSession[]): HTMLElement {
  const columns = ["session", "agent", "project", "last", "injections", "tokens", "prompts", "nothing injected"];
  return scrolling(
    "table",
    { className: "timeline-table sessions" },
    el("caption", { text: "Sessions, the one given something last first" }),
    el("thead", {}, el("tr", {}, ...columns.map((c) => el("th", { text: c, attrs: { scope: "col" } })))),
    el(
      "tbody",
      {},
      ...sessions.map((s) =>
        el(
          "tr",
          {},
          // Calls that named no session are counted here but cannot be listed apart.
          el("th", { attrs: { scope: "row" } }, s.sessionId === "" ? "(no session)" : el("a", { text: s.sessionId, attrs: { href: sessionHref(s.sessionId) } })),
          el("td", { text: s.agent || "-" }),
          el("td", { text: s.project || "-" }),
          el("td", { text: timeText(s.lastTime) }),
          el("td", { text: String(s.injections) }),
          el("td", { text: String(s.tokens) }),
          el("td", { text: String(s.prompts) }),
          el("td", { text: String(s.emptyPrompts) }),
        ),
      ),
    ),
  );
}

/** A wide table in a box of the page's width that scrolls sideways on a narrow screen, instead of widening the page. */
function scrolling(...args: Parameters<typeof el<"table">>): HTMLElement {
  return el("div", { className: "table-scroll" }, el(...args));
}

async function renderSession(view: HTMLElement, sessionId: string): Promise<void> {
  const listed = await injections.listInjections({ sessionId, pageSize: SESSION_RECORDS });
  const records = [...listed.injections].reverse();
  const tokens = records.reduce((sum, r) => sum + r.tokens, 0);
  const agents = [...new Set(records.map((r) => r.agent).filter(Boolean))].join(", ") || "no agent named";
  view.replaceChildren(
    el("h2", { text: `Session ${sessionId}` }),
    el("p", { className: "meta" }, el("a", { text: "All injections", attrs: { href: "#/injections" } }), ` · ${agents} · ${records.length} records, ${tokens} tokens`),
    listed.nextPageToken === "" ? "" : el("p", { className: "meta", text: `Only the last ${SESSION_RECORDS} records are shown.` }),
    records.length === 0
      ? el("p", { className: "meta", text: "nothing recorded for this session (records are kept for a limited time)" })
      : el("ol", { className: "timeline injections", attrs: { "aria-label": "What the agent was told, oldest first" } }, ...records.map(injectionItem)),
  );
}

const KIND_WORDS: Record<InjectionKind, string> = {
  [InjectionKind.UNSPECIFIED]: "injection",
  [InjectionKind.BRIEFING]: "briefing",
  [InjectionKind.POINTERS]: "pointers",
  [InjectionKind.RECALL]: "recall",
};

function injectionItem(r: Injection): HTMLLIElement {
  const given = r.memories.length;
  const size = given === 0 && r.tokens === 0 ? "nothing injected" : `${given} ${given === 1 ? "memory" : "memories"}, ${r.tokens} tokens`;
  return el(
    "li",
    { className: given === 0 && r.tokens === 0 ? "empty" : "" },
    el("time", { text: timeText(r.time) }),
    el("span", { className: "action", text: `${KIND_WORDS[r.kind]} via ${r.via}` }),
    el("span", { className: "detail", text: size }),
    r.prompt === "" ? "" : el("blockquote", { text: r.prompt, attrs: { "aria-label": "The prompt, redacted" } }),
    given === 0
      ? ""
      : el(
          "ul",
          { className: "given" },
          ...r.memories.map((m) =>
            el(
              "li",
              {},
              el("a", { text: m.line, attrs: { href: `#/memory/${m.memoryId}` } }),
              el("span", { className: "detail", text: ` · ${[kindName(m.kind), m.score > 0 ? `score ${m.score.toFixed(2)}` : "", m.why].filter(Boolean).join(" · ")}` }),
            ),
          ),
        ),
    r.text === "" ? "" : el("details", {}, el("summary", { text: "The text as the agent read it" }), el("pre", { text: r.text })),
  );
}
