import fs from "node:fs";
import path from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryKind, Provenance } from "../../gen/memd/v1/memory_pb.js";
import { MCP_BIN, REPO_ROOT, runCli, runProcess, spawnDaemon, type TestDaemon } from "../helpers/daemon.js";

const HOOK_BIN = path.join(REPO_ROOT, "dist/hooks/src/main.js");
const NOTE_FIXTURE = path.join(REPO_ROOT, "test/hooks/fixtures/post-tool-use-write-md.json");
const BEGIN = "<!-- memd:begin (generated; edits here are overwritten) -->";
const END = "<!-- memd:end -->";

/** Waits for a condition the daemon brings about in the background; the deadline only bounds a failure. */
async function eventually<T>(what: string, probe: () => T | undefined | null | false): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function read(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
}

async function codeOf(call: Promise<unknown>): Promise<Code | "ok"> {
  try {
    await call;
    return "ok";
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

function backupFiles(home: string): string[] {
  const root = path.join(home, "backups", "memory-files");
  return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".md")) : [];
}

describe("MEMORY.md sync and compress against a running daemon", () => {
  let daemon: TestDaemon;
  let claudeHome: string;

  /** A plain directory is its own project; its Claude Code folder follows Claude Code's naming. */
  function workspace(name: string): { dir: string; project: string; memoryDir: string } {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(daemon.home, `${name}-`)));
    const memoryDir = path.join(claudeHome, "projects", dir.replace(/[^a-zA-Z0-9]/g, "-"), "memory");
    return { dir, project: path.basename(dir), memoryDir };
  }

  beforeAll(async () => {
    const home = fs.mkdtempSync(path.join(fs.realpathSync("/tmp"), "memd-mf-"));
    claudeHome = path.join(home, "claude");
    daemon = await spawnDaemon({ home, env: { MEMD_CLAUDE_HOME: claudeHome, HOME: home } });
  });
  afterAll(async () => {
    await daemon.stop();
    fs.rmSync(daemon.home, { recursive: true, force: true });
  });

  it("keeps the project's top five active memories in Claude Code's MEMORY.md and leaves the rest of the file alone", async () => {
    const ws = workspace("acme-api");
    const index = path.join(ws.memoryDir, "MEMORY.md");
    fs.mkdirSync(ws.memoryDir, { recursive: true });
    fs.writeFileSync(index, "# Memory index\n\n- [pnpm only](feedback_pnpm.md) — use pnpm\n");

    const enabled = await runCli(daemon.home, ["--json", "memory-file", "enable"], { cwd: ws.dir });
    expect(enabled.stderr).toBe("");
    expect(JSON.parse(enabled.stdout).sync).toMatchObject({ project: ws.project, path: index });
    expect(read(index)).toBe(`# Memory index\n\n${BEGIN}\n## Top memories in memd (${ws.project})\n\nNo memories yet.\n\nFull text: \`memctl get <id>\` or the memory_get tool.\n${END}\n\n- [pnpm only](feedback_pnpm.md) — use pnpm\n`);

    const save = async (content: string, confidence: number, extra: { provenance?: Provenance } = {}) =>
      (await daemon.clients.memory.save({ content, confidence, kind: MemoryKind.DECISION, cwd: ws.dir, ...extra })).memory?.id as string;
    const kept = [
      await save("Auth is Clerk, not custom JWT.", 0.95),
      await save("Refresh tokens are stored hashed in Postgres.", 0.9),
      await save("The API is deployed with Argo CD.", 0.85),
      await save("Webhooks are retried with exponential backoff.", 0.8),
      await save("Feature flags live in LaunchDarkly.", 0.75),
    ];
    const weakest = await save("The sidebar might move to the right.", 0.3);
    const staged = await save("The user probably prefers tabs.", 0.99, { provenance: Provenance.DISTILLED });

    const listed = await eventually("the five memories in MEMORY.md", () => {
      const text = read(index);
      return kept.every((id) => text.includes(id)) && text;
    });
    expect(listed).not.toContain(weakest);
    expect(listed).not.toContain(staged);
    expect(listed).toContain(`- \`${kept[0]}\` decision: Auth is Clerk, not custom JWT.`);
    expect(listed.startsWith(`# Memory index\n\n${BEGIN}\n`)).toBe(true);
    expect(listed.endsWith(`${END}\n\n- [pnpm only](feedback_pnpm.md) — use pnpm\n`)).toBe(true);

    const superseded = await daemon.clients.memory.supersede({ id: kept[0], content: "Auth is Clerk with passkeys.", reason: "passkeys" });
    await daemon.clients.memory.archive({ id: kept[1], reason: "moved to Redis" });
    const updated = await eventually("the superseded and archived memories to leave MEMORY.md", () => {
      const text = read(index);
      return !text.includes(kept[0] as string) && !text.includes(kept[1] as string) && text;
    });
    expect(updated).toContain(superseded.memory?.id);
    expect(updated).toContain(weakest);

    const disabled = await runCli(daemon.home, ["memory-file", "disable"], { cwd: ws.dir });
    expect(disabled.stdout).toContain("memd's section was removed");
    expect(read(index)).toBe("# Memory index\n\n- [pnpm only](feedback_pnpm.md) — use pnpm\n");
    expect((await daemon.clients.memoryFiles.listMemoryFileSyncs({})).syncs.map((s) => s.project)).not.toContain(ws.project);
  });

  it("does not rewrite MEMORY.md when its section would not change, and stops writing once disabled", async () => {
    const quiet = workspace("quiet");
    const busy = workspace("busy");
    const quietFile = path.join(quiet.dir, "MEMORY.md");
    const busyFile = path.join(busy.dir, "notes.md");
    fs.writeFileSync(quietFile, "My own notes.\n");
    await daemon.clients.memory.save({ content: "Releases are cut on Tuesdays.", confidence: 0.9, cwd: quiet.dir });
    await daemon.clients.memoryFiles.enableMemoryFileSync({ cwd: quiet.dir, path: quietFile });
    await daemon.clients.memoryFiles.enableMemoryFileSync({ cwd: busy.dir, path: busyFile });
    expect(read(busyFile)).toContain("No memories yet.");
    const before = read(quietFile);
    expect(before).toContain("Releases are cut on Tuesdays.");
    const stat = fs.statSync(quietFile);

    // A write to the quiet project that leaves its top five as they are, then one to the busy
    // project: once the busy file shows it, the syncer has looked at both changes.
    await daemon.clients.memory.save({ content: "The staging cluster is called blue.", confidence: 0.9, cwd: quiet.dir, kind: MemoryKind.FACT, provenance: Provenance.DISTILLED });
    const marker = (await daemon.clients.memory.save({ content: "Busy projects get a new memory.", cwd: busy.dir })).memory?.id as string;
    await eventually("the busy project's file to list its memory", () => read(busyFile).includes(marker));
    const after = fs.statSync(quietFile);
    expect(read(quietFile)).toBe(before);
    expect([after.ino, after.mtimeMs]).toEqual([stat.ino, stat.mtimeMs]);

    await daemon.clients.memoryFiles.disableMemoryFileSync({ cwd: quiet.dir });
    expect(read(quietFile)).toBe("My own notes.\n");
    await daemon.clients.memory.save({ content: "Deploys freeze on Fridays.", confidence: 0.99, cwd: quiet.dir });
    const second = (await daemon.clients.memory.save({ content: "Busy projects get another memory.", cwd: busy.dir })).memory?.id as string;
    await eventually("the busy project's file to list its second memory", () => read(busyFile).includes(second));
    expect(read(quietFile)).toBe("My own notes.\n");

    // memd created the busy file, so disabling leaves nothing of it behind.
    const { sectionRemoved } = await daemon.clients.memoryFiles.disableMemoryFileSync({ cwd: busy.dir });
    expect(sectionRemoved).toBe(true);
    expect(fs.existsSync(busyFile)).toBe(false);
  });

  it("rejects paths and projects it cannot use, with the code a client can branch on", async () => {
    const ws = workspace("bad-input");
    const files = daemon.clients.memoryFiles;
    expect(await codeOf(files.enableMemoryFileSync({ cwd: ws.dir, path: "notes/MEMORY.md" }))).toBe(Code.InvalidArgument);
    expect(await codeOf(files.enableMemoryFileSync({ cwd: ws.dir, path: path.join(ws.dir, "MEMORY.txt") }))).toBe(Code.InvalidArgument);
    expect(await codeOf(files.enableMemoryFileSync({ cwd: ws.dir, path: path.join(ws.dir, "missing", "MEMORY.md") }))).toBe(Code.NotFound);
    expect(await codeOf(files.enableMemoryFileSync({ project: "no-such-project", path: path.join(ws.dir, "MEMORY.md") }))).toBe(Code.NotFound);
    expect(await codeOf(files.enableMemoryFileSync({ project: "global" }))).toBe(Code.InvalidArgument);
    expect(await codeOf(files.disableMemoryFileSync({ cwd: ws.dir }))).toBe(Code.NotFound);
    expect(await codeOf(files.compressMemoryFiles({ cwd: ws.dir, paths: ["relative/note.md"] }))).toBe(Code.InvalidArgument);
    expect(await codeOf(files.compressMemoryFiles({ cwd: ws.dir, paths: [path.join(ws.dir, "gone")] }))).toBe(Code.NotFound);
    expect(await codeOf(files.compressMemoryFiles({ cwd: ws.dir }))).toBe(Code.NotFound);

    const taken = path.join(ws.dir, "MEMORY.md");
    await files.enableMemoryFileSync({ cwd: ws.dir, path: taken });
    const other = workspace("other");
    expect(await codeOf(files.enableMemoryFileSync({ cwd: other.dir, path: taken }))).toBe(Code.AlreadyExists);
    await files.disableMemoryFileSync({ cwd: ws.dir });

    const failed = await runCli(daemon.home, ["compress", "gone.md"], { cwd: ws.dir });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("does not exist");
  });

  it("compresses a note memd-hook saved into a stub with its id, leaves an unsaved note alone, and backs up what it changed", async () => {
    const ws = workspace("notes");
    fs.mkdirSync(ws.memoryDir, { recursive: true });
    const payload = JSON.parse(fs.readFileSync(NOTE_FIXTURE, "utf8")) as { tool_input: { file_path: string; content: string } } & Record<string, unknown>;
    const saved = path.join(ws.memoryDir, "feedback_package_manager.md");
    const unsaved = path.join(ws.memoryDir, "project_ports.md");
    const index = path.join(ws.memoryDir, "MEMORY.md");
    const savedText = payload.tool_input.content;
    const unsavedText = "---\nname: dev ports\ndescription: local ports\ntype: project\n---\nPostgres listens on 5433 in development.\n";
    const indexText = "- [pnpm only](feedback_package_manager.md)\n- [ports](project_ports.md)\n";
    fs.writeFileSync(saved, savedText);
    fs.writeFileSync(unsaved, unsavedText);
    fs.writeFileSync(index, indexText);

    // Claude Code wrote the note; the PostToolUse hook saved it, exactly as in a session.
    const hook = await runProcess(HOOK_BIN, ["PostToolUse"], {
      env: { MEMD_HOME: daemon.home, MEMD_HOOK_TIMEOUT_MS: "10000" },
      input: JSON.stringify({ ...payload, cwd: ws.dir, tool_input: { ...payload.tool_input, file_path: saved } }),
    });
    expect(hook).toEqual({ code: 0, stdout: "", stderr: "" });
    const { memories } = await daemon.clients.memory.list({ project: ws.project });
    const id = memories.find((m) => m.content.startsWith("Always use pnpm in acme-api"))?.id as string;
    expect(id).toMatch(/^[0-9A-Z]{26}$/);

    const dry = JSON.parse((await runCli(daemon.home, ["--json", "compress", "--dry-run"], { cwd: ws.dir })).stdout);
    expect(dry).toMatchObject({ dryRun: true, project: ws.project });
    expect(dry.files).toEqual([
      { path: saved, outcome: "COMPRESS_OUTCOME_COMPRESSED", memoryId: id },
      { path: unsaved, outcome: "COMPRESS_OUTCOME_NOT_IN_DATABASE", reason: expect.stringContaining("no memory holds its content") },
    ]);
    expect([read(saved), read(unsaved), read(index)]).toEqual([savedText, unsavedText, indexText]);
    expect(backupFiles(daemon.home)).toEqual([]);

    const run = JSON.parse((await runCli(daemon.home, ["--json", "compress"], { cwd: ws.dir })).stdout);
    expect(run.files[0]).toMatchObject({ path: saved, outcome: "COMPRESS_OUTCOME_COMPRESSED", memoryId: id });
    const frontmatter = savedText.slice(0, savedText.indexOf("Always use pnpm"));
    expect(read(saved)).toBe(`${frontmatter}Moved to memd as ${id}. Read it with \`memctl get ${id}\` or the memory_get tool.\n<!-- memd:stub ${id} -->\n`);
    expect([read(unsaved), read(index)]).toEqual([unsavedText, indexText]);
    expect(fs.readFileSync(run.files[0].backupPath, "utf8")).toBe(savedText);
    expect(backupFiles(daemon.home)).toHaveLength(1);
    expect((await daemon.clients.memory.get({ id })).memory?.content).toContain("Always use pnpm in acme-api");

    const again = JSON.parse((await runCli(daemon.home, ["--json", "compress", ws.memoryDir], { cwd: ws.dir })).stdout);
    expect(again.files.map((f: { outcome: string }) => f.outcome)).toEqual(["COMPRESS_OUTCOME_ALREADY_STUB", "COMPRESS_OUTCOME_NOT_IN_DATABASE"]);
    expect(again.files[0].memoryId).toBe(id);
    expect(backupFiles(daemon.home)).toHaveLength(1);

    // The agent's tool reaches the same daemon logic.
    const client = new Client({ name: "memory-files-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({
      command: process.execPath,
      args: [MCP_BIN],
      cwd: ws.dir,
      env: { ...getDefaultEnvironment(), MEMD_HOME: daemon.home },
      stderr: "ignore",
    }));
    try {
      const result = (await client.callTool({ name: "memory_compress", arguments: { dry_run: true } })) as CallToolResult;
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      expect(result.isError).toBeFalsy();
      expect(text).toContain(`already a stub: ${saved} -> ${id}`);
      expect(text).toContain(`not in memd (left as is): ${unsaved}`);
    } finally {
      await client.close();
    }
  });
});
