// OpenCode's routes (/hooks/opencode/<event>) against a real daemon, fed what memd's OpenCode
// plugin posts, through the same client the plugin uses: OpenCode's own event and hook shapes
// (opencode-ai 1.18.33) with the plugin's additions.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Memory, MemoryKind, MemoryStatus } from "../../gen/memd/v1/memory_pb.js";
import { forwardHookEvent } from "../../hooks/src/forward-event.js";
import { spawnDaemon, type TestDaemon } from "../helpers/daemon.js";
import { OPENCODE_SESSION_ID, writeOpenCodeDatabase } from "../helpers/opencode-database.js";
import { until } from "../helpers/until.js";

const BOTH = [MemoryStatus.ACTIVE, MemoryStatus.STAGED];

describe("OpenCode's hook routes against a running daemon", () => {
  let daemon: TestDaemon;
  let workspace = "";
  const dirs: string[] = [];
  /** Posts one event as the plugin does, and returns what the daemon answered ("" for nothing). */
  const send = (event: string, body: Record<string, unknown>) =>
    forwardHookEvent({
      socketPath: daemon.socketPath,
      route: `/hooks/opencode/${event}`,
      payload: JSON.stringify({ directory: workspace, ...body }),
      signal: AbortSignal.timeout(10_000),
      remainingMs: () => 10_000,
    });
  const created = (sessionID: string, parentID?: string) => ({
    event: { type: "session.created", properties: { sessionID, info: { id: sessionID, directory: workspace, ...(parentID ? { parentID } : {}) } } },
  });
  const prompt = (sessionID: string, text: string, extra: Record<string, unknown> = {}) => ({
    input: { sessionID, agent: "build", model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" }, messageID: "msg_1" },
    output: { message: { id: "msg_1", role: "user", sessionID }, parts: [{ id: "prt_1", type: "text", text, messageID: "msg_1", sessionID }] },
    ...extra,
  });
  const bash = (sessionID: string, command: string, exit: number | null, output: string) => ({
    input: { tool: "bash", sessionID, callID: "call_1", args: { command, description: "Run it" } },
    output: { title: command, output, metadata: { output, exit, truncated: false } },
  });
  const memories = async (sessionId: string): Promise<Memory[]> => (await daemon.clients.memory.list({ project: path.basename(workspace), sessionId, statuses: BOTH })).memories;

  beforeAll(async () => {
    daemon = await spawnDaemon();
  });
  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), "acme-api-"));
    dirs.push(workspace);
  });
  afterAll(async () => {
    await daemon?.stop();
    for (const dir of [daemon.home, ...dirs]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("briefs a created session and points its prompt, as synthetic parts for the plugin to add", async () => {
    await daemon.clients.memory.save({ cwd: workspace, content: "We chose jose instead of jsonwebtoken for JWT signing", kind: MemoryKind.DECISION });
    const briefing = JSON.parse(await send("session.created", created("ses_a"))) as { parts: { type: string; text: string; synthetic: boolean }[] };
    expect(briefing.parts).toEqual([{ type: "text", text: expect.stringContaining("We chose jose instead of jsonwebtoken"), synthetic: true }]);
    const saved = await daemon.clients.memory.save({ cwd: workspace, content: "The refresh tokens table is partitioned by month", kind: MemoryKind.FACT });
    const pointers = JSON.parse(await send("chat.message", prompt("ses_a", "How are the refresh tokens partitioned?"))) as { parts: { text: string }[] };
    expect(pointers.parts[0]?.text).toContain("memd has memories that bear on this prompt");
    expect(pointers.parts[0]?.text).toContain(saved.memory?.id);
  });

  it("searches with what the user typed, not with parts a plugin added, and gives a sub-agent's session nothing", async () => {
    await daemon.clients.memory.save({ cwd: workspace, content: "The billing worker retries webhooks five times", kind: MemoryKind.FACT });
    const added = { id: "prt_1memd0", type: "text", text: "billing worker webhooks retries", synthetic: true };
    const withAdded = prompt("ses_b", "Hello", {});
    (withAdded.output.parts as unknown[]).push(added);
    expect(await send("chat.message", withAdded)).toBe("");
    expect(await send("session.created", created("ses_child", "ses_b"))).toBe("");
    expect(await send("chat.message", prompt("ses_child", "How often does the billing worker retry webhooks?", { parentID: "ses_b" }))).toBe("");
    expect(await send("chat.message", prompt("ses_b", "How often does the billing worker retry webhooks?"))).toContain("five times");
  });

  it("saves a failed or timed-out bash call as a trace, and nothing for a command that passed or one the user aborted", async () => {
    expect(await send("tool.execute.after", bash("ses_c", "pnpm test src/auth", 1, "FAIL src/auth/tokens.test.ts\nAssertionError: expected null to equal 'user_42'\n"))).toBe("");
    expect(await send("tool.execute.after", bash("ses_c", "pnpm lint", 0, "ok\n"))).toBe("");
    expect(await send("tool.execute.after", bash("ses_c", "pnpm e2e", null, "running\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>"))).toBe("");
    expect(await send("tool.execute.after", bash("ses_c", "sleep 600", null, "\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout 120000 ms.\n</shell_metadata>"))).toBe("");
    const traces = (await memories("ses_c")).filter((m) => m.kind === MemoryKind.TRACE).map((m) => m.content);
    expect(traces.sort()).toEqual([
      "Command failed: pnpm test src/auth\nExit code 1\nFAIL src/auth/tokens.test.ts\nAssertionError: expected null to equal 'user_42'",
      "Command failed: sleep 600\nTimed out",
    ]);
  });

  it("sweeps the session from OpenCode's database, found from the environment OpenCode saw", async () => {
    const dataHome = fs.mkdtempSync(path.join(os.tmpdir(), "memd-xdg-data-"));
    dirs.push(dataHome);
    writeOpenCodeDatabase(path.join(dataHome, "opencode", "opencode.db"));
    const idle = { event: { type: "session.idle", properties: { sessionID: OPENCODE_SESSION_ID } } };
    expect(await send("session.idle", { ...idle, storage: { HOME: "/nonexistent-home", XDG_DATA_HOME: dataHome } })).toBe("");
    const saved = await until(
      () => memories(OPENCODE_SESSION_ID),
      (found) => found.some((m) => m.kind === MemoryKind.PREFERENCE),
    );
    expect(saved.find((m) => m.kind === MemoryKind.PREFERENCE)).toMatchObject({ content: "Run the auth tests before you say a fix is done.", sourceAgent: "opencode" });
    // Without a database where the environment says, the sweep is refused, naming the file.
    await expect(send("session.idle", { ...idle, storage: { HOME: "/nonexistent-home" } })).rejects.toThrow("no transcript at /nonexistent-home/.local/share/opencode/opencode.db");
  });

  it("refuses a payload that is not OpenCode's JSON, and an event memd does not take", async () => {
    const raw = (payload: string) => forwardHookEvent({ socketPath: daemon.socketPath, route: "/hooks/opencode/chat.message", payload, signal: AbortSignal.timeout(10_000), remainingMs: () => 10_000 });
    await expect(raw("[1]")).rejects.toThrow(/invalid_argument .*chat\.message payload is not the agent's hook JSON/);
    await expect(raw("{")).rejects.toThrow(/it is not JSON/);
    await expect(send("session.deleted", {})).rejects.toThrow(/not_found no hook route/);
  });
});
