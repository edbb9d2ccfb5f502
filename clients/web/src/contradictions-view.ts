import { type Contradiction, ContradictionResolution, ContradictionSource } from "../../../gen/memd/v1/contradiction_pb.js";
import type { Memory } from "../../../gen/memd/v1/memory_pb.js";
import { contradictions } from "./daemon.js";
import { type Act, acting, button, el, timeText } from "./dom.js";
import { contentLink, memoryMeta } from "./memory-summary.js";

/** The open contradictions read at once; the count above them says how many wait in all. */
const SHOWN = 100;

const SOURCE_WORDS: Record<ContradictionSource, string> = {
  [ContradictionSource.UNSPECIFIED]: "a write",
  [ContradictionSource.SAVE]: "a save",
  [ContradictionSource.CHECKPOINT]: "a checkpoint",
  [ContradictionSource.IMPORT]: "the check of an import",
  [ContradictionSource.SWEEP]: "a transcript sweep",
  [ContradictionSource.EMBEDDING]: "the memory's nearest memories in meaning",
  [ContradictionSource.UPDATE]: "an update",
  [ContradictionSource.VAULT]: "a file in the vault",
};

/**
 * The contradictions found on write that wait for a decision, newest first: each pair's two
 * memories, what each says of their subject and where it was found, settled in one click by
 * keeping the newer, the older (the other is superseded by it) or both.
 */
export async function renderContradictions(view: HTMLElement): Promise<void> {
  const listed = await contradictions.listContradictions({ pageSize: SHOWN });
  const act = acting(() => renderContradictions(view));
  const open = listed.openCount;
  view.replaceChildren(
    el("h2", { text: "Contradictions" }),
    el("p", {
      className: "meta",
      text: open === 0
        ? "nothing to settle: no two memories that hold say different things about the same subject"
        : `${open} open ${open === 1 ? "contradiction" : "contradictions"}: keep one memory of a pair (the other is superseded by it) or both${listed.nextPageToken === "" ? "" : `; the newest ${SHOWN} are shown`}`,
    }),
    el("ol", { className: "contradictions", attrs: { "aria-label": "Open contradictions, newest first" } }, ...listed.contradictions.map((c) => pairItem(c, act))),
  );
}

function pairItem(c: Contradiction, act: Act): HTMLLIElement {
  const settle = (resolution: ContradictionResolution) => act(() => contradictions.settleContradiction({ id: c.id, resolution }));
  const by = c.detector === "rules" ? `the rules, score ${c.score.toFixed(2)}` : c.detector;
  return el(
    "li",
    // Marked when its newer memory was just saved (main.ts).
    { attrs: { "data-memory-id": c.memory?.id ?? "", "data-contradiction-id": String(c.id) } },
    el("h3", { text: c.subject || "(no subject named)" }),
    el("div", { className: "pair" }, side("Newer", c.newerSays, c.memory), side("Older", c.olderSays, c.other)),
    el("p", { className: "meta", text: `Found by ${SOURCE_WORDS[c.source]} at ${timeText(c.foundTime)} (${by}) · contradiction ${c.id}` }),
    el(
      "div",
      { className: "actions" },
      button("Keep the newer", settle(ContradictionResolution.KEPT_NEWER)),
      button("Keep the older", settle(ContradictionResolution.KEPT_OLDER)),
      button("Both hold", settle(ContradictionResolution.COMPATIBLE)),
    ),
  );
}

/** One memory of a pair: what it says of the subject, its text as a link, and what it is. */
function side(label: string, says: string, m: Memory | undefined): HTMLElement {
  return el(
    "div",
    { attrs: { role: "group", "aria-label": `${label} memory` } },
    el("h4", { text: `${label} says: ${says || "-"}` }),
    ...(m ? [contentLink(m), memoryMeta(m)] : [el("p", { className: "meta", text: "the memory is no longer stored" })]),
  );
}
