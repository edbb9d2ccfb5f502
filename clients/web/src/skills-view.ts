import { SkillScope } from "../../../gen/memd/v1/skill_service_pb.js";
import { skills } from "./daemon.js";
import { acting, button, el } from "./dom.js";

/** Proven memories memd proposes to write as agent skills (SKILL.md): approve writes one, dismiss stops proposing it. */
export async function renderSkills(view: HTMLElement): Promise<void> {
  const { proposals } = await skills.listSkillProposals({ limit: 100 });
  const act = acting(() => renderSkills(view));
  view.replaceChildren(
    el("h2", { text: "Skills" }),
    el("p", { className: "meta", text: proposals.length === 0 ? "nothing to propose: no proven procedure or rule that an installed skill does not already cover" : `${proposals.length} proven memories could become skills` }),
    el(
      "ol",
      { attrs: { "aria-label": "Skill proposals, most proven first" } },
      ...proposals.map((p) =>
        el(
          "li",
          {},
          el("p", { className: "content", text: `${p.name}: ${p.description}` }),
          el("p", { className: "meta", text: [p.reason, (SkillScope[p.scope] ?? "").toLowerCase(), p.path, `from ${p.memoryId}`].filter(Boolean).join(" · ") }),
          el("details", {}, el("summary", { text: "SKILL.md as it would be written" }), el("pre", { text: p.preview })),
          el(
            "div",
            { className: "actions" },
            button("Approve", act(() => skills.approveSkillProposal({ memoryId: p.memoryId }))),
            button("Dismiss", act(() => skills.dismissSkillProposal({ memoryId: p.memoryId }))),
          ),
        ),
      ),
    ),
  );
}
