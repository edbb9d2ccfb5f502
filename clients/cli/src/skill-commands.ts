import { toJson } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import { MemoryKindSchema } from "../../../gen/memd/v1/memory_pb.js";
import { type SkillProposal, SkillProposalSchema, SkillScopeSchema } from "../../../gen/memd/v1/skill_service_pb.js";
import { action, CliFailure } from "./context.js";
import { enumName, enumParser, intParser } from "./enums.js";

/** Skill graduation: proven procedures and preferences become Claude Code skills, when a person approves. */
export function registerSkillCommands(program: Command): void {
  const skills = program
    .command("skills")
    .description("memories that could become Claude Code skills (SKILL.md): list them, approve one, or dismiss one");

  skills
    .command("list", { isDefault: true })
    .description("list skill proposals: procedures and preferences proven across time and sessions that no installed skill covers")
    .option("-p, --project <name>", "this project's proposals (default: the current directory's project)")
    .option("-n, --limit <n>", "at most this many, 1-100 (default 20)", intParser)
    .option("--preview", "print each SKILL.md in full")
    .action(
      action(async (ctx, opts: { project?: string; limit?: number; preview?: boolean }) => {
        const res = await ctx.clients.skills.listSkillProposals({ project: opts.project, cwd: process.cwd(), limit: opts.limit });
        if (ctx.json) {
          ctx.printJson(res.proposals.map(proposalJson));
          return;
        }
        if (res.proposals.length === 0) {
          ctx.print("no skill proposals");
          return;
        }
        for (const p of res.proposals) {
          ctx.print(`${p.memoryId}  ${enumName(MemoryKindSchema, p.kind)}  ${p.project}  ->  ${p.name}`);
          ctx.print(`  ${p.description}`);
          ctx.print(`  why: ${p.reason}`);
          ctx.print(`  writes: ${p.path}`);
          if (opts.preview) ctx.print(`\n${p.preview}`);
        }
        ctx.print("\napprove one with 'memctl skills approve ID', or never see it again with 'memctl skills dismiss ID'");
      }),
    );

  skills
    .command("approve")
    .description("write a memory as a Claude Code skill (<skills dir>/<name>/SKILL.md); never overwrites a file")
    .argument("<id>", "the memory to write as a skill")
    .option("--scope <scope>", "user (~/.claude/skills) or project (<project>/.claude/skills); default: from the memory's project", enumParser(SkillScopeSchema))
    .option("--name <name>", "a skill name instead of the proposed one (lowercase letters, digits, hyphens)")
    .action(
      action(async (ctx, id: string, opts: { scope?: number; name?: string }) => {
        const res = await ctx.clients.skills.approveSkillProposal({ memoryId: id, scope: opts.scope, name: opts.name, cwd: process.cwd() });
        const skill = approvedSkill(id, res.skill);
        if (ctx.json) ctx.printJson(proposalJson(skill));
        else ctx.print(`wrote skill ${skill.name} to ${skill.path}`);
      }),
    );

  skills
    .command("dismiss")
    .description("never propose this memory as a skill again")
    .argument("<id>", "the memory not to propose")
    .action(
      action(async (ctx, id: string) => {
        const res = await ctx.clients.skills.dismissSkillProposal({ memoryId: id });
        const at = res.dismissTime ? timestampDate(res.dismissTime).toISOString() : "";
        if (ctx.json) ctx.printJson({ memoryId: res.memoryId, dismissTime: at });
        else ctx.print(`dismissed ${res.memoryId}: it will not be proposed as a skill again`);
      }),
    );
}

/** The skill the daemon wrote; an answer without one cannot say where it went, so it fails. */
export function approvedSkill(id: string, skill: SkillProposal | undefined): SkillProposal {
  if (skill === undefined) {
    throw new CliFailure(`the daemon answered the approval of ${id} without the skill it wrote; see whether a SKILL.md was written with 'memctl skills list' and the skills directories`);
  }
  return skill;
}

function proposalJson(proposal: SkillProposal): unknown {
  return toJson(SkillProposalSchema, proposal);
}
