import { MemoryKind, MemoryStatus } from "../../../gen/memd/v1/memory_pb.js";
import { memory as memories } from "./daemon.js";
import { acting, button, el } from "./dom.js";
import { contentLink } from "./memory-summary.js";

/** The inferred guesses waiting for corroboration, with the session they came from: promote or reject in one click. */
export async function renderStaged(view: HTMLElement): Promise<void> {
  const { memories: staged } = await memories.list({ statuses: [MemoryStatus.STAGED], pageSize: 200 });
  const act = acting(() => renderStaged(view));
  view.replaceChildren(
    el("h2", { text: "Staged" }),
    el("p", { className: "meta", text: staged.length === 0 ? "nothing is staged" : `${staged.length} guesses wait for a person or a second session` }),
    el(
      "ol",
      { attrs: { "aria-label": "Staged memories, newest first" } },
      ...staged.map((m) =>
        el(
          "li",
          { attrs: { "data-memory-id": m.id } },
          contentLink(m),
          el("p", { className: "meta", text: [(MemoryKind[m.kind] ?? "").toLowerCase(), m.project, m.sessionId ? `session ${m.sessionId}` : "", m.id].filter(Boolean).join(" · ") }),
          el(
            "div",
            { className: "actions" },
            button("Promote", act(() => memories.promote({ id: m.id }))),
            button("Reject", act(() => memories.reject({ id: m.id, reason: "rejected in the viewer" }))),
          ),
        ),
      ),
    ),
  );
}
