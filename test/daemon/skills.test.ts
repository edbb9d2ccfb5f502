import fs from "node:fs";
import path from "node:path";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { SkillScope } from "../../gen/memd/v1/skill_service_pb.js";
import { makeHome, REPO_ROOT, runCli, runProcess, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { provenMemory, type ProvenMemoryInput } from "../helpers/proven-memory.js";
import { refusal, refusalCode } from "../helpers/refusal.js";

const HOOK_BIN = path.join(REPO_ROOT, "dist/hooks/src/main.js");

let daemon: TestDaemon;
let home: string;
let claudeHome: string;
let workspace: string;
const env = () => ({ MEMD_CLAUDE_HOME: claudeHome });
const ids: Record<string, string> = {};


async function syncProposalIds(): Promise<string[]> {
  const res = await daemon.clients.memory.sync({ cwd: workspace, sessionId: "s-check" });
  return res.skillProposals.map((p) => p.memoryId);
}

/** Every file under the user's and the project's skills folders, with its text. */
function skillFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const dir of [path.join(claudeHome, "skills"), path.join(workspace, ".claude", "skills")]) {
    if (!fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) out[path.join(entry.parentPath, entry.name)] = fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8");
    }
  }
  return out;
}

async function save(content: string, kind: MemoryKind, options: { project?: string; provenance?: Provenance; concepts?: string[] } = {}): Promise<string> {
  const res = await daemon.clients.memory.save({ content, kind, cwd: workspace, sessionId: "s-save", ...options });
  return res.memory?.id ?? "";
}

/**
 * A memory a person stated ten days ago and that was used since (see provenMemory): only such a
 * memory is proposed. Imported, since a memory saved during the test is minutes old.
 */
async function saveProven(content: string, kind: MemoryKind, options: Partial<ProvenMemoryInput> = {}): Promise<string> {
  const memory = provenMemory({ content, kind, project: path.basename(workspace), ...options });
  await daemon.clients.admin.import({ memories: [memory] });
  return memory.id;
}

beforeAll(async () => {
  home = makeHome();
  claudeHome = path.join(home, "claude");
  workspace = fs.mkdtempSync(path.join(home, "acme-"));
  // An installed user skill that already says what one of the memories says.
  fs.mkdirSync(path.join(claudeHome, "skills", "pnpm-only"), { recursive: true });
  fs.writeFileSync(
    path.join(claudeHome, "skills", "pnpm-only", "SKILL.md"),
    "---\nname: pnpm-only\ndescription: Package installs with pnpm. Use when adding dependencies.\n---\nInstall packages with pnpm; npm and yarn are not used here.\n",
  );
  // A stray, malformed skill must not get in the way.
  fs.mkdirSync(path.join(claudeHome, "skills", "broken"));
  fs.writeFileSync(path.join(claudeHome, "skills", "broken", "SKILL.md"), "no frontmatter at all");
  daemon = await spawnDaemon({ home, env: env() });

  ids.procedure = await saveProven("Run make migrate-up before the integration tests, then seed with make seed.", MemoryKind.PROCEDURE, { concepts: ["migrations"] });
  // Saved ten days ago and never read back, then saved again now from another session: the repeat proves it.
  ids.covered = await saveProven("Use pnpm for installing packages, never npm.", MemoryKind.PREFERENCE, { project: "global", readBack: false });
  await save("Use pnpm for installing packages, never npm.", MemoryKind.PREFERENCE, { project: "global" });
  // A person's preference, minutes old: not yet proven, however confidently stated.
  ids.unproven = await save("Keep Makefile recipes indented with tabs.", MemoryKind.PREFERENCE, { provenance: Provenance.HUMAN });
  ids.decision = await save("We chose Postgres over MySQL for the ledger.", MemoryKind.DECISION, { provenance: Provenance.HUMAN });
});

afterAll(async () => {
  await daemon.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe("skill graduation", () => {
  it("proposes a proven procedure that no installed skill covers, in Sync and in memctl skills", async () => {
    expect(await syncProposalIds()).toEqual([ids.procedure]);

    const cli = await runCli(home, ["skills", "--json"], { cwd: workspace });
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    const listed = JSON.parse(cli.stdout) as { memoryId: string; name: string; path: string; preview: string; scope: string; reason: string }[];
    expect(listed.map((p) => p.memoryId)).toEqual([ids.procedure]);
    const [proposal] = listed;
    expect(proposal?.name).toBe("run-make-migrate-integration");
    expect(proposal?.scope).toBe("SKILL_SCOPE_PROJECT");
    expect(proposal?.path).toBe(path.join(workspace, ".claude", "skills", "run-make-migrate-integration", "SKILL.md"));
    expect(proposal?.reason).toBe("procedure, confidence 0.95, read back 7 days after it was saved");
    expect(proposal?.preview).toContain(`Graduated from memd memory ${ids.procedure}.`);

    const text = await runCli(home, ["skills"], { cwd: workspace });
    expect(text.stdout).toContain(`${ids.procedure}  procedure`);
    expect(text.stdout).toContain("memctl skills approve ID");
    // Proposing writes nothing.
    expect(Object.keys(skillFiles())).toHaveLength(2);
  });

  it("shows the proposal as one line of the SessionStart briefing", async () => {
    const payload = { session_id: "s-brief", cwd: workspace, hook_event_name: "SessionStart", source: "startup", transcript_path: path.join(workspace, "t.jsonl") };
    const run = await runProcess(HOOK_BIN, ["SessionStart"], { env: { MEMD_HOME: home, MEMD_HOOK_TIMEOUT_MS: "10000" }, input: JSON.stringify(payload) });
    expect(run.stderr).toBe("");
    const context = (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(context.split("\n").filter((line) => line.startsWith("- Skill proposal:"))).toEqual([
      `- Skill proposal: run-make-migrate-integration (memctl skills approve ${ids.procedure})`,
    ]);
  });

  it("approves a proposal by writing a SKILL.md with valid frontmatter, after which it is no longer proposed", async () => {
    const cli = await runCli(home, ["skills", "approve", ids.procedure as string, "--json"], { cwd: workspace });
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    const written = JSON.parse(cli.stdout) as { path: string; name: string };
    expect(written.path).toBe(path.join(workspace, ".claude", "skills", "run-make-migrate-integration", "SKILL.md"));

    const text = fs.readFileSync(written.path, "utf8");
    const frontmatter = /^---\nname: ([^\n]*)\ndescription: ([^\n]*)\n---\n/.exec(text);
    expect(frontmatter?.[1]).toBe("run-make-migrate-integration");
    expect(frontmatter?.[1]).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const description = JSON.parse(frontmatter?.[2] ?? '""') as string;
    expect(description).toMatch(/^How to: Run make migrate-up before the integration tests, then seed with make seed\. Use when/);
    expect(description.length).toBeLessThanOrEqual(1024);
    expect(text).toContain(`Graduated from memd memory ${ids.procedure}.`);

    expect(await syncProposalIds()).toEqual([]);
    const listed = await daemon.clients.skills.listSkillProposals({ cwd: workspace });
    expect(listed.proposals).toEqual([]);
  });

  it("refuses to approve twice, an unknown id, an unproven or a covered memory, with clear codes and nothing written", async () => {
    const before = skillFiles();
    const approve = (memoryId: string, extra: { name?: string; scope?: SkillScope } = {}) =>
      daemon.clients.skills.approveSkillProposal({ memoryId, cwd: workspace, ...extra });

    expect(await refusalCode(approve(ids.procedure as string))).toBe(Code.AlreadyExists);
    expect(await refusalCode(approve("01JZZZZZZZZZZZZZZZZZZZZZZZ"))).toBe(Code.NotFound);
    expect(await refusalCode(approve(ids.unproven as string))).toBe(Code.FailedPrecondition);
    expect(await refusalCode(approve(ids.decision as string))).toBe(Code.FailedPrecondition);
    const covered = await refusal(approve(ids.covered as string));
    expect(covered.code).toBe(Code.FailedPrecondition);
    expect(covered.rawMessage).toContain('already covered by the installed skill "pnpm-only"');

    const unknown = await runCli(home, ["skills", "approve", "01JZZZZZZZZZZZZZZZZZZZZZZZ"], { cwd: workspace });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no memory has id 01JZZZZZZZZZZZZZZZZZZZZZZZ");
    const unproven = await runCli(home, ["skills", "approve", ids.unproven as string], { cwd: workspace });
    expect(unproven.code).toBe(1);
    expect(unproven.stderr).toContain("was saved 0 hours ago and has not been used since");
    expect(skillFiles()).toEqual(before);
  });

  it("never overwrites an existing SKILL.md when a name is given", async () => {
    const id = await saveProven("Tag releases with git tag -s and push the tag.", MemoryKind.PROCEDURE, { project: "global" });
    const before = skillFiles();
    const err = await refusal(daemon.clients.skills.approveSkillProposal({ memoryId: id, name: "pnpm-only" }));
    expect(err.code).toBe(Code.AlreadyExists);
    expect(err.rawMessage).toContain("never overwritten");
    expect(await refusalCode(daemon.clients.skills.approveSkillProposal({ memoryId: id, name: "Bad_Name" }))).toBe(Code.InvalidArgument);
    expect(skillFiles()).toEqual(before);
    // Still a proposal: a failed approval records nothing.
    expect(await syncProposalIds()).toEqual([id]);
    ids.release = id;
  });

  it("never proposes a dismissed memory again, also after the daemon restarts", async () => {
    const cli = await runCli(home, ["skills", "dismiss", ids.release as string], { cwd: workspace });
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`dismissed ${ids.release}`);
    expect(await syncProposalIds()).toEqual([]);

    await daemon.stop();
    daemon = await spawnDaemon({ home, env: env() });
    expect(await syncProposalIds()).toEqual([]);
    const listed = await runCli(home, ["skills", "--json"], { cwd: workspace });
    expect(JSON.parse(listed.stdout)).toEqual([]);
    // Dismissing again is harmless; dismissing an approved memory is refused.
    expect((await daemon.clients.skills.dismissSkillProposal({ memoryId: ids.release as string })).memoryId).toBe(ids.release);
    expect(await refusalCode(daemon.clients.skills.dismissSkillProposal({ memoryId: ids.procedure as string }))).toBe(Code.FailedPrecondition);
  });

  it("writes a global memory to the user's skills, or with scope project to the current project's", async () => {
    const user = await saveProven("Squash fixup commits before opening a pull request.", MemoryKind.PROCEDURE, { project: "global" });
    const project = await saveProven("Regenerate the API client after editing openapi.yaml.", MemoryKind.PROCEDURE, { project: "global" });
    const toUser = await daemon.clients.skills.approveSkillProposal({ memoryId: user, cwd: workspace });
    expect(toUser.skill?.path).toBe(path.join(claudeHome, "skills", "squash-fixup-commits-opening", "SKILL.md"));
    expect(toUser.skill?.scope).toBe(SkillScope.USER);
    const toProject = await daemon.clients.skills.approveSkillProposal({ memoryId: project, cwd: workspace, scope: SkillScope.PROJECT });
    expect(toProject.skill?.path).toBe(path.join(workspace, ".claude", "skills", "regenerate-api-client-editing", "SKILL.md"));
    expect(fs.existsSync(toUser.skill?.path ?? "")).toBe(true);
    expect(fs.existsSync(toProject.skill?.path ?? "")).toBe(true);
  });
});
