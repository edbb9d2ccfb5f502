import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { type SkillProposal, SkillProposalSchema, SkillScope, SkillService } from "../../../gen/memd/v1/skill_service_pb.js";
import { InvalidInputError } from "../errors.js";
import { approveSkill, dismissSkill, graduationScope, proposeSkills } from "../skills/skill-graduation.js";
import type { PlannedSkill } from "../skills/skill-proposals.js";
import type { SkillScopeName } from "../skills/skill-target.js";
import { requestLoggerKey } from "./context.js";
import { kindToPb, timeToPb } from "./convert.js";
import { boundedCount } from "./bounded-count.js";
import type { ServiceDeps } from "./deps.js";
import type { ProjectHint } from "./project-resolver.js";

const DEFAULT_LIST_LIMIT = 20;
const MAX_LIST_LIMIT = 100;
/** Sync carries only a few proposals: the session briefing has room for little more. */
const SYNC_PROPOSALS = 3;

export function createSkillService(deps: ServiceDeps): ServiceImpl<typeof SkillService> {
  return {
    listSkillProposals(req, ctx) {
      const limit = boundedCount("limit", req.limit, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
      const scope = graduationScope(deps, req);
      const proposals = proposeSkills(deps, scope, limit, ctx.values.get(requestLoggerKey));
      return { proposals: proposals.map(skillProposalToPb), project: scope.project ?? "" };
    },

    approveSkillProposal(req, ctx) {
      const scope = graduationScope(deps, { project: "", cwd: req.cwd });
      const planned = approveSkill(deps, scope, { memoryId: req.memoryId, scope: scopeFromPb(req.scope), name: req.name }, ctx.values.get(requestLoggerKey));
      return { skill: skillProposalToPb(planned) };
    },

    dismissSkillProposal(req) {
      const decision = dismissSkill(deps, req.memoryId);
      return { memoryId: decision.memoryId, dismissTime: timeToPb(decision.at) };
    },
  };
}

/** The few proposals Sync hands to a starting session, for its project (already resolved by Sync) with global memories. */
export function syncSkillProposals(deps: ServiceDeps, hint: ProjectHint, project: string, ctx: HandlerContext): SkillProposal[] {
  const scope = graduationScope(deps, hint, project);
  return proposeSkills(deps, scope, SYNC_PROPOSALS, ctx.values.get(requestLoggerKey)).map(skillProposalToPb);
}

function skillProposalToPb(planned: PlannedSkill): SkillProposal {
  return create(SkillProposalSchema, {
    memoryId: planned.memory.id,
    name: planned.name,
    description: planned.description,
    path: planned.path,
    preview: planned.text,
    reason: planned.reason,
    scope: planned.scope === "user" ? SkillScope.USER : SkillScope.PROJECT,
    kind: kindToPb(planned.memory.kind),
    project: planned.memory.project,
  });
}

function scopeFromPb(scope: SkillScope): SkillScopeName | "auto" {
  switch (scope) {
    case SkillScope.UNSPECIFIED:
      return "auto";
    case SkillScope.USER:
      return "user";
    case SkillScope.PROJECT:
      return "project";
    default:
      throw new InvalidInputError(`scope has unknown value ${scope}; use user or project`);
  }
}
