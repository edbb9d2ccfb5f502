import { type Memory, MemoryKind, MemoryStatus, Provenance, Tier } from "../../../gen/memd/v1/memory_pb.js";
import type { InjectionTally, MemoryEvent } from "../../../gen/memd/v1/memory_service_pb.js";
import { memory as memories } from "./daemon.js";
import { type Act, acting, button, el, timeText } from "./dom.js";
import { type DetailField, detailFields } from "./event-detail.js";

const name = (values: Record<number, string>, value: number) => (values[value] ?? String(value)).toLowerCase();
const memoryLink = (id: string) => (id === "" ? el("span", { text: "-" }) : el("a", { text: id, attrs: { href: `#/memory/${id}` } }));

/**
 * One memory: every field, its chain of claims and recorded changes as a timeline, and what a
 * person can do with it. Each action is the daemon's own RPC, so it lands in the history.
 */
export async function renderMemory(view: HTMLElement, id: string): Promise<void> {
  const [{ memory }, history] = await Promise.all([memories.get({ id }), memories.history({ id })]);
  if (!memory) throw new Error(`memd answered without memory ${id}`);
  const act = acting(() => renderMemory(view, id));
  view.replaceChildren(
    el("h2", { text: "Memory" }),
    el("p", { text: memory.content, className: "content" }),
    fields(memory),
    actions(memory, act),
    edits(memory, act),
    el("h3", { text: "History" }),
    injectedLine(history.injections.find((t) => t.memoryId === id)),
    timeline(history.chain, history.events, id),
  );
}

/** How often agents were told about a memory, and where last: "injected 3 times, last in session S (codex) at T". */
function injected(t: InjectionTally): (Node | string)[] {
  const session = t.lastSessionId ? [" in session ", el("a", { text: t.lastSessionId, attrs: { href: `#/injections/${encodeURIComponent(t.lastSessionId)}` } })] : [];
  return [`injected ${t.count} ${t.count === 1 ? "time" : "times"}, last`, ...session, `${t.lastAgent ? ` (${t.lastAgent})` : ""} at ${timeText(t.lastTime)}`];
}

function injectedLine(t: InjectionTally | undefined): HTMLElement | string {
  return t ? el("p", { className: "meta injected" }, "Agents were told of it: ", ...injected(t)) : "";
}

function fields(m: Memory): HTMLDListElement {
  const rows: [string, Node | string][] = [
    ["id", m.id],
    ["kind", name(MemoryKind, m.kind)],
    ["project", m.project],
    ["status", name(MemoryStatus, m.status)],
    ["from", m.author ? `${m.author}${m.viaTeam ? ` (team ${m.viaTeam})` : ""}` : "you"],
    ["edited by", m.editedBy || "-"],
    ["confidence", m.confidence.toFixed(2)],
    ["provenance", name(Provenance, m.provenance)],
    ["tier", name(Tier, m.tier)],
    ["importance", String(m.importance)],
    ["pinned", m.pinned ? "yes" : "no"],
    ["concepts", m.concepts.join(", ") || "-"],
    ["files", m.files.join(", ") || "-"],
    ["tags", m.tags.join(", ") || "-"],
    ["created", timeText(m.createTime)],
    ["updated", timeText(m.updateTime)],
    ["expires", timeText(m.expireTime)],
    ["review", timeText(m.reviewTime)],
    ["session", m.sessionId || "-"],
    ["agent", m.sourceAgent || "-"],
    ["supersedes", memoryLink(m.supersedes)],
    ["superseded by", memoryLink(m.supersededBy)],
    ["archived because", m.archiveReason || "-"],
  ];
  return el("dl", { className: "fields" }, ...rows.flatMap(([term, value]) => [el("dt", { text: term }), el("dd", {}, value)]));
}

function actions(m: Memory, act: Act): HTMLElement {
  const row = el("div", { className: "actions", attrs: { role: "group", "aria-label": "Actions" } });
  if (m.status === MemoryStatus.STAGED) {
    row.append(
      button("Promote", act(() => memories.promote({ id: m.id }))),
      button("Reject", act(() => memories.reject({ id: m.id, reason: "rejected in the viewer" }))),
    );
  }
  if (m.status === MemoryStatus.ACTIVE || m.status === MemoryStatus.STAGED) {
    row.append(button("Archive", act(() => memories.archive({ id: m.id, reason: "archived in the viewer" }))));
  }
  if (m.status === MemoryStatus.ARCHIVED) row.append(button("Restore", act(() => memories.restore({ id: m.id }))));
  row.append(button(m.pinned ? "Unpin" : "Pin", act(() => memories.update({ id: m.id, pinned: !m.pinned }))));
  return row;
}

/** Editing changes the memory in place (the old text stays in the history); superseding records a correction as a new memory. */
function edits(m: Memory, act: Act): HTMLElement {
  const box = el("div");
  if (m.status === MemoryStatus.SUPERSEDED) return box;
  const edit = el("textarea", { attrs: { id: "edit-content", "aria-label": "Content" } });
  // The default, so that the page can tell an edit not yet saved (main.ts does not redraw over one).
  edit.defaultValue = m.content;
  const correction = el("textarea", { attrs: { id: "correction", "aria-label": "Correction", placeholder: "what holds now" } });
  box.append(
    el("div", { className: "edit" }, el("label", { text: "Edit the content", attrs: { for: "edit-content" } }), edit, button("Save the edit", act(() => memories.update({ id: m.id, content: edit.value })))),
  );
  if (m.status !== MemoryStatus.ARCHIVED) {
    box.append(
      el(
        "div",
        { className: "edit" },
        el("label", { text: "Supersede with a correction", attrs: { for: "correction" } }),
        correction,
        button(
          "Supersede",
          act(
            () => memories.supersede({ id: m.id, content: correction.value, reason: "corrected in the viewer" }),
            (res) => {
              location.hash = `#/memory/${res.memory?.id ?? m.id}`;
            },
          ),
        ),
      ),
    );
  }
  return box;
}

/** The chain of claims, oldest first, then every recorded change with its time. */
function timeline(chain: readonly Memory[], events: readonly MemoryEvent[], current: string): HTMLElement {
  const claims = el(
    "ol",
    { className: "timeline", attrs: { "aria-label": "Claims, oldest first" } },
    ...chain.map((claim) =>
      el(
        "li",
        { className: `status-${name(MemoryStatus, claim.status)}` },
        el("time", { text: timeText(claim.createTime) }),
        el("span", { className: "action", text: name(MemoryStatus, claim.status) }),
        claim.id === current ? el("span", { text: claim.content }) : el("a", { text: claim.content, attrs: { href: `#/memory/${claim.id}` } }),
      ),
    ),
  );
  const changes = el(
    "ol",
    { className: "timeline", attrs: { "aria-label": "Changes, oldest first" } },
    ...events.map((event) =>
      el(
        "li",
        {},
        el("time", { text: timeText(event.time) }),
        el("span", { className: "action", text: event.action }),
        detail(event),
        // An agent told of a memory before it was taken out of use may still act on it.
        event.injectedBefore ? el("div", { className: "meta injected" }, "Before this, agents were told of it: ", ...injected(event.injectedBefore)) : "",
      ),
    ),
  );
  return el("div", {}, el("h4", { text: "Claims" }), claims, el("h4", { text: "Changes" }), changes);
}

/** Fields a long group may show before it is folded away behind its label (a hub conflict's whole replaced version). */
const FOLD_AFTER_FIELDS = 8;

/** A change's detail: field by field when the daemon recorded fields, else its words. */
function detail(event: MemoryEvent): HTMLElement {
  const fields = detailFields(event.action, event.detail);
  return fields === null ? el("span", { className: "detail", text: event.detail }) : fieldList(fields);
}

function fieldList(fields: readonly DetailField[]): HTMLDListElement {
  return el(
    "dl",
    { className: "detail-fields" },
    ...fields.flatMap((field) => {
      if ("text" in field) return [el("dt", { text: field.label }), el("dd", { text: field.text })];
      const inner = fieldList(field.fields);
      const shown = field.fields.length > FOLD_AFTER_FIELDS ? el("details", {}, el("summary", { text: `${field.fields.length} fields` }), inner) : inner;
      return [el("dt", { text: field.label }), el("dd", {}, shown)];
    }),
  );
}
