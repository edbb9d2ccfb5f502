import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaptureOutcome } from "../../gen/memd/v1/capture_service_pb.js";
import { type Memory, MemoryKind, MemoryStatus, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { type CliResult, makeHome, REPO_ROOT, runCli, runProcess, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { until } from "../helpers/until.js";

const HOOK_BIN = path.join(REPO_ROOT, "dist/hooks/src/main.js");
const HOOK_FIXTURES = path.join(REPO_ROOT, "test/hooks/fixtures");
const TRANSCRIPTS = path.join(REPO_ROOT, "test/fixtures/transcripts");
const EXPECTED = JSON.parse(fs.readFileSync(path.join(TRANSCRIPTS, "session-auth-refactor.expected.json"), "utf8")) as {
  secrets_must_not_be_stored: { value: string }[];
};
/** The tests share two cores with other test files: the hook gets a generous budget. */
const RELAXED_BUDGET = { MEMD_HOOK_TIMEOUT_MS: "10000" };
const QUIET: CliResult = { code: 0, stdout: "", stderr: "" };
const BOTH = [MemoryStatus.ACTIVE, MemoryStatus.STAGED];

function runHook(home: string, event: string, payload: unknown, env: Record<string, string> = RELAXED_BUDGET): Promise<CliResult> {
  return runProcess(HOOK_BIN, [event], { env: { MEMD_HOME: home, MEMD_HOOK_TIMEOUT_MS: "", ...env }, input: JSON.stringify(payload) });
}

/** A workspace (its folder names the project) holding a copy of the fixture transcript. */
function workspaceWithTranscript(sessionId: string): { workspace: string; transcript: string } {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "acme-api-"));
  const transcript = path.join(workspace, `${sessionId}.jsonl`);
  fs.copyFileSync(path.join(TRANSCRIPTS, "session-auth-refactor.jsonl"), transcript);
  return { workspace, transcript };
}

/** The hook payload fixture, pointed at the copied transcript and a fresh session. */
function payload(event: "session-end" | "pre-compact", sessionId: string, workspace: string, transcript: string): Record<string, unknown> {
  const fixture = JSON.parse(fs.readFileSync(path.join(HOOK_FIXTURES, `${event}.json`), "utf8")) as Record<string, unknown>;
  return { ...fixture, session_id: sessionId, cwd: workspace, transcript_path: transcript };
}


function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe("the transcript sweep against a running daemon", () => {
  let daemon: TestDaemon;
  const workspaces: string[] = [];
  const sessionMemories = async (project: string, sessionId: string): Promise<Memory[]> =>
    (await daemon.clients.memory.list({ project, sessionId, statuses: BOTH })).memories;

  beforeAll(async () => {
    daemon = await spawnDaemon();
  });
  afterAll(async () => {
    await daemon.stop();
    fs.rmSync(daemon.home, { recursive: true, force: true });
    for (const workspace of workspaces) fs.rmSync(workspace, { recursive: true, force: true });
  });

  it("answers SessionEnd silently, then saves the stated preferences active and the inferred memories staged", async () => {
    const { workspace, transcript } = workspaceWithTranscript("end-1");
    workspaces.push(workspace);
    const project = path.basename(workspace);
    expect(await runHook(daemon.home, "SessionEnd", payload("session-end", "end-1", workspace, transcript))).toEqual(QUIET);

    const memories = await until(() => sessionMemories(project, "end-1"), (m) => m.length > 0);
    const active = memories.filter((m) => m.status === MemoryStatus.ACTIVE);
    const staged = memories.filter((m) => m.status === MemoryStatus.STAGED);
    expect(active.map((m) => m.kind)).toEqual([MemoryKind.PREFERENCE, MemoryKind.PREFERENCE, MemoryKind.PREFERENCE]);
    expect(active.every((m) => m.provenance === Provenance.HUMAN && m.sourceAgent === "claude-code")).toBe(true);
    expect(active.map((m) => m.content).join("\n")).toContain("Always use pnpm in this repo, never npm or yarn");
    expect(staged.map((m) => m.kind).sort()).toEqual([MemoryKind.FACT, MemoryKind.DECISION, MemoryKind.DECISION, MemoryKind.EPISODE].sort());
    expect(staged.every((m) => m.provenance === Provenance.DISTILLED)).toBe(true);
    const episode = staged.find((m) => m.kind === MemoryKind.EPISODE);
    expect(episode?.files).toEqual(["src/auth/tokens.ts"]);
    expect(episode?.problem).toContain("`pnpm test src/auth src/middleware` failed");
    expect(memories).toHaveLength(7);

    // Staged guesses stay out of normal search until corroborated.
    const search = await daemon.clients.memory.search({ query: "jose jsonwebtoken", project });
    expect(search.results).toEqual([]);
  });

  it("saves nothing twice when PreCompact and then SessionEnd sweep the same transcript", async () => {
    const { workspace, transcript } = workspaceWithTranscript("compact-1");
    workspaces.push(workspace);
    const project = path.basename(workspace);
    expect(await runHook(daemon.home, "PreCompact", payload("pre-compact", "compact-1", workspace, transcript))).toEqual(QUIET);
    const first = await until(() => sessionMemories(project, "compact-1"), (m) => m.length > 0);
    expect(first).toHaveLength(7);

    expect(await runHook(daemon.home, "SessionEnd", payload("session-end", "compact-1", workspace, transcript))).toEqual(QUIET);
    // Sweeps run one at a time in arrival order: this one answers after the SessionEnd sweep.
    const third = await daemon.clients.capture.captureTranscript({ transcriptPath: transcript, sessionId: "compact-1", cwd: workspace, wait: true });
    expect(third.memories.map((m) => m.outcome)).toEqual(Array(7).fill(CaptureOutcome.ALREADY_SAVED));
    expect((await sessionMemories(project, "compact-1")).map((m) => m.id).sort()).toEqual(first.map((m) => m.id).sort());
  });

  it("sweeps a transcript from memctl capture and prints what it saved", async () => {
    const { workspace, transcript } = workspaceWithTranscript("cli-1");
    workspaces.push(workspace);
    const run = await runCli(daemon.home, ["capture", transcript, "--session", "cli-1", "--project", "cli-project"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^swept 41 lines of session cli-1 into cli-project/);
    expect(run.stdout.match(/^created: /gm)).toHaveLength(7);
    expect(run.stdout).toContain("preference  cli-project\n");
    expect(run.stdout).toContain("decision  cli-project (staged)");

    const again = await runCli(daemon.home, ["capture", transcript, "--session", "cli-1", "--project", "cli-project"]);
    expect(again.stdout.match(/^already saved: /gm)).toHaveLength(7);
  });

  it("refuses a bad transcript path with InvalidArgument or NotFound and a message that says what to pass", async () => {
    const capture = (transcriptPath: string) => daemon.clients.capture.captureTranscript({ transcriptPath, sessionId: "bad-1", wait: false });
    const codeOf = async (transcriptPath: string) => {
      try {
        await capture(transcriptPath);
        return "accepted";
      } catch (error) {
        return `${Code[ConnectError.from(error).code]}: ${ConnectError.from(error).rawMessage}`;
      }
    };
    expect(await codeOf("session.jsonl")).toMatch(/^InvalidArgument: transcript_path must be an absolute path/);
    expect(await codeOf(path.join(daemon.home, "missing.jsonl"))).toMatch(/^NotFound: no transcript at /);
    expect(await codeOf(daemon.home)).toMatch(/^InvalidArgument: .* is not a regular file/);

    const garbage = path.join(daemon.home, "garbage.jsonl");
    fs.writeFileSync(garbage, "not json\nat all\n");
    const waited = daemon.clients.capture.captureTranscript({ transcriptPath: garbage, sessionId: "bad-1", wait: true });
    await expect(waited).rejects.toMatchObject({ code: Code.InvalidArgument });
  });

  it("skips malformed lines, counts them and sweeps the rest", async () => {
    const { workspace, transcript } = workspaceWithTranscript("torn-1");
    workspaces.push(workspace);
    fs.appendFileSync(transcript, '{"type":"user","message":{"role":"user","content":"trunc\n');
    const res = await daemon.clients.capture.captureTranscript({ transcriptPath: transcript, sessionId: "torn-1", cwd: workspace, wait: true });
    expect({ lines: res.linesRead, malformed: res.malformedLines, saved: res.memories.length }).toEqual({ lines: 42, malformed: 1, saved: 7 });
  });

  it("stores none of the pasted secrets in the database, its WAL or any log", async () => {
    const { workspace, transcript } = workspaceWithTranscript("secret-1");
    workspaces.push(workspace);
    // Besides line 33's paste, a standing rule that quotes the secrets: it is saved, redacted.
    const [aws, awsSecret, github] = EXPECTED.secrets_must_not_be_stored.map((s) => s.value);
    const rule = `From now on always deploy with AWS_ACCESS_KEY_ID=${aws} AWS_SECRET_ACCESS_KEY=${awsSecret} and GH_TOKEN=${github} set.`;
    fs.appendFileSync(transcript, `${JSON.stringify({ type: "user", message: { role: "user", content: rule } })}\n`);
    const res = await daemon.clients.capture.captureTranscript({ transcriptPath: transcript, sessionId: "secret-1", cwd: workspace, trigger: "test", wait: true });
    const saved = res.memories.find((m) => m.memory?.content.startsWith("Always deploy with"));
    expect(saved?.memory?.content).toMatch(/^Always deploy with AWS_ACCESS_KEY_ID=\[REDACTED:[\w-]+\] AWS_SECRET_ACCESS_KEY=\[REDACTED:/);
    // Read once the vault has written its files: a file being written is a temporary one for a moment.
    expect((await until(() => daemon.clients.vault.getVaultStatus({}), (s) => s.pending === 0n)).pending).toBe(0n);
    const files = filesUnder(daemon.home);
    expect(files).toEqual(expect.arrayContaining([path.join(daemon.home, "memd.db"), path.join(daemon.home, "logs", "memd.log")]));
    expect(files.some((f) => f.endsWith("memd.db-wal"))).toBe(true);
    for (const file of files) {
      const bytes = fs.readFileSync(file).toString("latin1");
      for (const { value } of EXPECTED.secrets_must_not_be_stored) expect(bytes.includes(value), `${value} in ${file}`).toBe(false);
    }
    const log = fs.readFileSync(path.join(daemon.home, "logs", "memd.log"), "utf8");
    expect(log).toContain('"msg":"transcript swept"');
    expect(log).not.toContain("pnpm");
  });
});

describe("the SessionEnd hook fails open", () => {
  it("exits 0 with nothing printed and one line in hooks.log when no daemon is running", async () => {
    const home = makeHome();
    const { workspace, transcript } = workspaceWithTranscript("down-1");
    try {
      expect(await runHook(home, "SessionEnd", payload("session-end", "down-1", workspace, transcript))).toEqual(QUIET);
      const lines = fs.readFileSync(path.join(home, "logs", "hooks.log"), "utf8").trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^\S+ SessionEnd daemon call failed: memd is not running \(nothing answers on (\S+)\)$/);
      expect(lines[0]).toContain(`on ${path.join(home, "memd.sock")})`);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});
