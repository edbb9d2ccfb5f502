import fs from "node:fs";
import path from "node:path";
import { ConflictError, FailedPreconditionError, InvalidInputError, NotFoundError } from "../errors.js";
import type { Logger } from "../logger.js";
import { GLOBAL_PROJECT, type MemoryRecord, localProjects } from "../memory/memory.js";
import { validateId } from "../memory/validate.js";
import { resolveProjectRoot } from "../project/project-root.js";
import type { ProjectHint, ProjectResolver } from "../services/project-resolver.js";
import type { MemoryStore, SkillDecision } from "../store/store.js";
import { scanSkillsDir, type ScannedSkills } from "./scan-skills.js";
import { coveringSkill, indexSkills, type IndexedSkill } from "./skill-coverage.js";
import { DEFAULT_GRADUATION_CONFIG, type GraduationConfig, skillEligibility } from "./skill-eligibility.js";
import { isValidSkillName, MAX_SKILL_NAME } from "./skill-file.js";
import { skillSlug, uniqueSkillName } from "./skill-name.js";
import { planProposals, planSkill, type PlannedSkill, type ProposalCandidate } from "./skill-proposals.js";
import { chooseSkillsDir, projectSkillsDir, type SkillDirs, type SkillScopeName } from "./skill-target.js";

/** What graduation needs from the daemon; ServiceDeps provides it. */
export interface GraduationDeps {
  store: MemoryStore;
  resolveProject: ProjectResolver;
  claudeHome: string;
  now: () => number;
}

/** The request's project and its root directory, when known. */
export interface GraduationScope {
  project: string | undefined;
  root: string | null;
}

// More procedures and preferences than anyone keeps; a bound, not a page.
const MAX_CANDIDATES = 10_000;

/** The request's project (resolved from the hint unless the caller already did) and its root directory. */
export function graduationScope(deps: GraduationDeps, hint: ProjectHint, project = deps.resolveProject(hint)): GraduationScope {
  if (project === undefined || project === GLOBAL_PROJECT) return { project, root: null };
  // resolveProject has accepted the cwd (absolute), and registered the same root under this name.
  const root = hint.project.trim() === "" && hint.cwd !== "" ? resolveProjectRoot(hint.cwd).root : projectRoots(deps.store).get(project) ?? null;
  return { project, root };
}

/**
 * The skill proposals of a project (with global memories) or, without one, of every project.
 * Reads the skills folders only when some memory qualifies.
 */
export function proposeSkills(deps: GraduationDeps, scope: GraduationScope, limit: number, logger: Logger, config: GraduationConfig = DEFAULT_GRADUATION_CONFIG): PlannedSkill[] {
  const { store } = deps;
  const projects = localProjects(scope.project);
  const memories = store.list({ projects, kinds: [...config.kinds], statuses: ["active"] }, { limit: MAX_CANDIDATES });
  if (memories.length === 0) return [];
  const ids = memories.map((m) => m.id);
  const decisions = new Map(store.skillDecisions.of(ids).map((d) => [d.memoryId, d]));
  const reinforcements = store.reinforcements(ids);
  const now = deps.now();
  const eligible = memories.flatMap((memory) => {
    const evidence = reinforcements.get(memory.id) ?? [];
    const verdict = skillEligibility(memory, { reinforcements: evidence, decision: decisions.get(memory.id) }, now, config);
    return verdict.eligible ? [{ memory, reason: verdict.reason, reinforcements: evidence.length }] : [];
  });
  if (eligible.length === 0) return [];

  const folders = new SkillFolders(deps, scope, logger);
  const candidates: ProposalCandidate[] = [];
  for (const { memory, reason, reinforcements: count } of eligible) {
    const dirs = folders.dirsFor(memory);
    const target = chooseSkillsDir(memory, "auto", dirs);
    if ("error" in target) continue;
    candidates.push({ memory, reason, reinforcements: count, scope: target.scope, dir: target.dir, skills: folders.skillsFor(dirs) });
  }
  return planProposals(candidates, folders.takenNames(), limit, config.coverageThreshold);
}

export interface ApproveRequest {
  memoryId: string;
  scope: SkillScopeName | "auto";
  /** A name instead of the proposed one; empty for the proposed one. */
  name: string;
}

/**
 * Writes a memory as a skill and records the approval. Never overwrites: an existing SKILL.md
 * is a ConflictError. A dismissed memory may still be approved (a person changed their mind);
 * any other memory that would not be proposed is refused with the reason.
 */
export function approveSkill(deps: GraduationDeps, scope: GraduationScope, request: ApproveRequest, logger: Logger, config: GraduationConfig = DEFAULT_GRADUATION_CONFIG): PlannedSkill {
  const memory = memoryOrThrow(deps.store, request.memoryId);
  const decision = deps.store.skillDecisions.of([memory.id])[0];
  const reinforcements = deps.store.reinforcements([memory.id]).get(memory.id) ?? [];
  const verdict = skillEligibility(memory, { reinforcements, decision: decision?.decision === "dismissed" ? undefined : decision }, deps.now(), config);
  if (!verdict.eligible) {
    if (verdict.why === "approved") throw new ConflictError(`${verdict.message}; delete that folder first to write it again`);
    throw new FailedPreconditionError(verdict.message);
  }
  const folders = new SkillFolders(deps, scope, logger);
  const dirs = folders.dirsFor(memory);
  const target = chooseSkillsDir(memory, request.scope, dirs);
  if ("error" in target) throw new FailedPreconditionError(target.error);
  const covered = coveringSkill(memory, folders.skillsFor(dirs), config.coverageThreshold);
  if (covered) {
    throw new FailedPreconditionError(
      `memory ${memory.id} is already covered by the installed skill "${covered.skill.name}" (${covered.skill.file}); edit that skill instead`,
    );
  }
  const name = request.name.trim() === "" ? uniqueSkillName(skillSlug(memory), folders.takenNames()) : checkedName(request.name.trim());
  const planned = planSkill(memory, name, target.dir, target.scope, verdict.reason);
  writeNewFile(planned.path, planned.text);
  deps.store.skillDecisions.record({ memoryId: memory.id, decision: "approved", skillPath: planned.path, at: deps.now() });
  logger.info({ memoryId: memory.id, path: planned.path }, "skill written from memory");
  return planned;
}

/** Records that a memory is never to be proposed again; dismissing twice keeps the first time. */
export function dismissSkill(deps: GraduationDeps, memoryId: string): SkillDecision {
  const memory = memoryOrThrow(deps.store, memoryId);
  const earlier = deps.store.skillDecisions.of([memory.id])[0];
  if (earlier?.decision === "dismissed") return earlier;
  if (earlier?.decision === "approved") {
    throw new FailedPreconditionError(
      `memory ${memory.id} was already approved as a skill (${earlier.skillPath}); to remove the skill, delete its folder`,
    );
  }
  const decision: SkillDecision = { memoryId: memory.id, decision: "dismissed", skillPath: "", at: deps.now() };
  deps.store.skillDecisions.record(decision);
  return decision;
}

function memoryOrThrow(store: MemoryStore, rawId: string): MemoryRecord {
  const id = validateId(rawId);
  const memory = store.get(id);
  if (!memory) throw new NotFoundError(`no memory has id ${id}; list the proposals with memctl skills`);
  return memory;
}

function checkedName(name: string): string {
  if (!isValidSkillName(name)) {
    throw new InvalidInputError(
      `skill name "${name.slice(0, 80)}" is not valid: use 1-${MAX_SKILL_NAME} lowercase letters, digits and single hyphens, e.g. run-db-migrations`,
    );
  }
  return name;
}

/** Creates the skill's folder and writes SKILL.md only if no file is there yet. */
function writeNewFile(file: string, text: string): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text, { flag: "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      throw new ConflictError(`${file} already exists and is never overwritten: choose another name`, { cause: error });
    }
    // The skills folder is the user's: when it cannot be written, say where and why.
    if (code === "EACCES" || code === "EPERM" || code === "ENOTDIR" || code === "EROFS" || code === "ENOSPC") {
      throw new FailedPreconditionError(`cannot write ${file} (${code}): check that folder, or approve with another scope`, { cause: error });
    }
    throw error;
  }
}

function projectRoots(store: MemoryStore): Map<string, string> {
  return new Map(store.projects().filter((p) => p.root !== "").map((p) => [p.name, p.root]));
}

/** The skills folders of one request, each scanned at most once, and project roots looked up at most once. */
class SkillFolders {
  private readonly scanned = new Map<string, { scan: ScannedSkills; indexed: IndexedSkill[] }>();
  private roots: Map<string, string> | null = null;
  private readonly user: string;

  constructor(
    private readonly deps: GraduationDeps,
    private readonly scope: GraduationScope,
    private readonly logger: Logger,
  ) {
    this.user = path.join(deps.claudeHome, "skills");
  }

  dirsFor(memory: MemoryRecord): SkillDirs {
    const requestProject = this.scope.root === null ? null : projectSkillsDir(this.scope.root);
    let memoryRoot: string | null = null;
    if (memory.project === this.scope.project) memoryRoot = this.scope.root;
    else if (memory.project !== GLOBAL_PROJECT) {
      this.roots ??= projectRoots(this.deps.store);
      memoryRoot = this.roots.get(memory.project) ?? null;
    }
    return { user: this.user, memoryProject: memoryRoot === null ? null : projectSkillsDir(memoryRoot), requestProject };
  }

  /**
   * The skills a memory is checked against: the user's, its project's and, for a global memory,
   * the request's project's (the skills Claude Code would load there).
   */
  skillsFor(dirs: SkillDirs): IndexedSkill[] {
    const list = [dirs.user, dirs.memoryProject ?? dirs.requestProject].filter((d): d is string => d !== null);
    return [...new Set(list)].flatMap((dir) => this.scan(dir).indexed);
  }

  /** Folder and skill names of every folder scanned so far, plus the user's and the request project's. */
  takenNames(): Set<string> {
    this.scan(this.user);
    if (this.scope.root !== null) this.scan(projectSkillsDir(this.scope.root));
    const names = new Set<string>();
    for (const { scan } of this.scanned.values()) {
      for (const folder of scan.folders) names.add(folder);
      for (const skill of scan.skills) names.add(skill.name);
    }
    return names;
  }

  private scan(dir: string): { scan: ScannedSkills; indexed: IndexedSkill[] } {
    let entry = this.scanned.get(dir);
    if (!entry) {
      const scan = scanSkillsDir(dir, this.logger);
      entry = { scan, indexed: indexSkills(scan.skills) };
      this.scanned.set(dir, entry);
    }
    return entry;
  }
}
