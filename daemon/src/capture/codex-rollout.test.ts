import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CaptureCandidate } from "./candidate.js";
import { extractCandidates } from "./extract-candidates.js";
import { readTranscript } from "./read-transcript.js";
import { parseTranscriptLine } from "./transcript-line.js";
import { eventsOf, toolResultsOf, toolUsesOf, transcriptFixture } from "../../../test/helpers/transcript-fixture.js";

const { file: FIXTURE, lines: LINES } = transcriptFixture("codex-rollout.jsonl");
const ROLLOUT = fs.readFileSync(FIXTURE, "utf8");


const events = eventsOf(LINES);
const uses = toolUsesOf(events);
const results = toolResultsOf(events);
const resultOf = (id: string) => results.find((r) => r.toolUseId === id);
/** The fixture's line numbers, found by what they hold, so the assertions say what they mean. */
const lineWith = (needle: string) => LINES.findIndex((l) => l.includes(needle)) + 1;

describe("parseTranscriptLine on a Codex rollout", () => {
  it("takes the session id and cwd from session_meta", () => {
    const meta = parseTranscriptLine(LINES[0] as string, 1);
    expect(meta).toEqual({ ok: true, sessionId: "019e4b2c-7d15-7a30-9c41-5b8e2f6a0d17", cwd: "/work/shop", events: [] });
  });

  it("reads the session id, cwd and every line through readTranscript", async () => {
    const read = await readTranscript(FIXTURE);
    expect(read).toMatchObject({ sessionId: "019e4b2c-7d15-7a30-9c41-5b8e2f6a0d17", cwd: "/work/shop", malformedLines: 0, linesRead: LINES.length });
    expect(read.events).toEqual(events);
  });

  it("reads the user's and the assistant's words once each, from the response items only", () => {
    const texts = events.filter((e) => e.kind === "text").map((e) => (e.kind === "text" ? [e.role, e.text] : []));
    expect(texts).toEqual([
      ["user", "The cart total test fails since yesterday, please fix it. From now on, run the tests before you tell me something is done."],
      ["assistant", expect.stringMatching(/^The discount is applied twice/)],
      ["assistant", expect.stringMatching(/^Fixed: `total\(\)` no longer applies the discount/)],
    ]);
    // event_msg user_message / agent_message repeat those texts and yield nothing.
    for (const type of ["user_message", "agent_message", "exec_command_end", "patch_apply_end", "token_count"]) {
      const line = LINES.findIndex((l) => l.includes(`"type":"event_msg","payload":{"type":"${type}"`));
      expect(line, type).toBeGreaterThanOrEqual(0);
      expect(parseTranscriptLine(LINES[line] as string, line + 1)).toMatchObject({ ok: true, events: [] });
    }
  });

  it("skips Codex's own context: AGENTS.md, the environment block and developer messages", () => {
    const text = events.map((e) => (e.kind === "text" ? e.text : "")).join("\n");
    expect(text).not.toMatch(/AGENTS\.md|INSTRUCTIONS|never npm|environment_context|sandbox_mode|permissions instructions/);
    for (const needle of ["# AGENTS.md instructions", "<environment_context>", "<permissions instructions>"]) {
      expect(eventsOf([LINES[lineWith(needle) - 1] as string]), needle).toEqual([]);
    }
  });

  it("turns shell calls of every shape into Bash tool uses with the command as one string", () => {
    expect(uses.map((u) => [u.id, u.name, u.command, u.filePath])).toEqual([
      ["call_A1", "Bash", "pnpm test src/cart", ""], // exec_command {cmd}
      ["call_B2", "Edit", "", "src/cart/total.ts"], // apply_patch (custom tool)
      ["call_C3", "Bash", "pnpm test src/cart", ""],
      ["call_D4", "Bash", "git status --short", ""], // shell ["bash", "-lc", ...]
      ["call_E5", "Bash", "pnpm lint", ""], // shell_command {command: string}
      ["call_F6", "Bash", "ls -la 'src/cart fixtures'", ""], // local_shell_call argv, quoted
      ["call_G7", "Bash", "pnpm dev", ""],
    ]);
  });

  it("reads the exit code from each output format and keeps only the start of the output", () => {
    expect(resultOf("call_A1")).toMatchObject({ isError: true, line: lineWith('"call_id":"call_A1","output"') });
    expect(resultOf("call_A1")?.outputHead).toMatch(/^Exit code 1\n\n FAIL {2}src\/cart\/total\.test\.ts/);
    expect(resultOf("call_A1")?.outputHead).not.toContain("Chunk ID");
    expect(resultOf("call_B2")).toMatchObject({ isError: false, outputHead: "Exit code 0\nSuccess. Updated the following files:\nM src/cart/total.ts\n" });
    expect(resultOf("call_C3")?.isError).toBe(false);
    expect(resultOf("call_D4")).toMatchObject({ isError: false, outputHead: "Exit code 0\n M src/cart/total.ts\n" });
    expect(resultOf("call_E5")?.isError).toBe(true);
    expect(resultOf("call_E5")?.outputHead).toMatch(/^Exit code 2\n\/work\/shop\/src\/cart\/total\.ts\n {2}3:10 {2}error/);
    expect(resultOf("call_F6")?.isError).toBe(false);
    // Still running when the output was written: no outcome yet, so no result.
    expect(resultOf("call_G7")).toBeUndefined();
  });
});

describe("parseTranscriptLine on other Codex shapes", () => {
  const item = (payload: Record<string, unknown>) => JSON.stringify({ timestamp: "2026-05-20T10:00:00.000Z", type: "response_item", payload });
  const parse = (payload: Record<string, unknown>) => eventsOf([item(payload)]);

  it("names every file an apply_patch body touches, however the patch was sent", () => {
    const patch = "*** Begin Patch\n*** Add File: docs/cart.md\n+# Cart\n*** Update File: src/cart/total.ts\n@@\n-a\n+b\n*** End Patch";
    const expected = [
      { kind: "tool-use", id: "p1", name: "Edit", command: "", filePath: "docs/cart.md", line: 1 },
      { kind: "tool-use", id: "p1#2", name: "Edit", command: "", filePath: "src/cart/total.ts", line: 1 },
    ];
    expect(parse({ type: "function_call", name: "apply_patch", arguments: JSON.stringify({ input: patch }), call_id: "p1" })).toEqual(expected);
    expect(parse({ type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["apply_patch", patch] }), call_id: "p1" })).toEqual(expected);
    expect(parse({ type: "function_call", name: "exec_command", arguments: JSON.stringify({ cmd: `apply_patch <<'EOF'\n${patch}\nEOF` }), call_id: "p1" })).toEqual(expected);
  });

  it("joins an argv that is not `<shell> -c <script>` with shell quoting", () => {
    const [use] = parse({ type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["grep", "-rn", "it's", "src"] }), call_id: "g1" });
    expect(use).toMatchObject({ name: "Bash", command: "grep -rn 'it'\\''s' src" });
    const [ps] = parse({ type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["powershell.exe", "-NoProfile", "-Command", "Get-ChildItem"] }), call_id: "g2" });
    expect(ps).toMatchObject({ command: "Get-ChildItem" });
  });

  it("keeps other tools under their own name and takes a failed run without an exit code as an error", () => {
    expect(parse({ type: "function_call", name: "update_plan", arguments: "{}", call_id: "u1" })).toEqual([
      { kind: "tool-use", id: "u1", name: "update_plan", command: "", filePath: "", line: 1 },
    ]);
    const [spawn] = parse({ type: "function_call_output", call_id: "x1", output: "execution error: Io(Os { code: 2, kind: NotFound })" });
    expect(spawn).toMatchObject({ kind: "tool-result", isError: true });
    const [items] = parse({ type: "function_call_output", call_id: "x2", output: [{ type: "input_text", text: "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nok" }] });
    expect(items).toMatchObject({ isError: false, outputHead: "Exit code 0\nok" });
    const [plain] = parse({ type: "function_call_output", call_id: "x3", output: "{not the exec shape" });
    expect(plain).toMatchObject({ isError: false, outputHead: "{not the exec shape" });
  });

  it("skips every block Codex injects as a user message and keeps the request after IDE context", () => {
    const user = (text: string) => parse({ type: "message", role: "user", content: [{ type: "input_text", text }] });
    for (const text of [
      "<user_instructions>\nAlways use tabs.\n</user_instructions>",
      "<skill>\n<name>deploy</name>\nNever skip the canary.\n</skill>",
      "<user_shell_command>\n<command>ls</command>\n</user_shell_command>",
      "<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>",
      "<subagent_notification>{}</subagent_notification>",
    ]) {
      expect(user(text), text).toEqual([]);
    }
    expect(user("# Context from my IDE setup:\n\n## Open tabs:\n- a.ts\n\n## My request for Codex:\nAlways squash merge.")).toMatchObject([{ text: "Always squash merge." }]);
  });

  it("reads the bare response items of rollouts older than the payload envelope", () => {
    const lines = [
      JSON.stringify({ id: "legacy-1", timestamp: "2025-06-01T10:00:00.000Z", instructions: null }),
      JSON.stringify({ record_type: "state" }),
      JSON.stringify({ type: "message", role: "user", content: [{ type: "input_text", text: "Never force-push to main." }] }),
      JSON.stringify({ type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", "make test"] }), call_id: "c1" }),
      JSON.stringify({ type: "function_call_output", call_id: "c1", output: JSON.stringify({ output: "FAIL", metadata: { exit_code: 2, duration_seconds: 0.4 } }) }),
    ];
    expect(eventsOf(lines)).toEqual([
      { kind: "text", role: "user", text: "Never force-push to main.", line: 3 },
      { kind: "tool-use", id: "c1", name: "Bash", command: "make test", filePath: "", line: 4 },
      { kind: "tool-result", toolUseId: "c1", isError: true, outputHead: "Exit code 2\nFAIL", line: 5 },
    ]);
  });
});

describe("extractCandidates on a Codex rollout", () => {
  const found = extractCandidates(events, "/work/shop");
  const ofKind = (kind: CaptureCandidate["kind"]) => found.filter((c) => c.kind === kind);

  it("finds the failing test, the fix and the passing rerun as one episode, as it does for Claude Code", () => {
    const episodes = ofKind("episode");
    expect(episodes).toHaveLength(1);
    const episode = episodes[0] as CaptureCandidate;
    expect(episode).toMatchObject({ source: "tools", files: ["src/cart/total.ts"], concepts: ["pnpm"], line: lineWith('"call_id":"call_A1","output"') });
    expect(episode.problem).toBe(
      "`pnpm test src/cart` failed (exit code 1): FAIL src/cart/total.test.ts > total > applies the discount once; AssertionError: expected 81 to be 90; Test Files 1 failed (1); Tests 1 failed | 6 passed (7)",
    );
    expect(episode.solution).toContain("`applyDiscount` runs in both `subtotal()` and `total()`");
    expect(episode.solution).toContain("Changed src/cart/total.ts.");
  });

  it("takes the user's standing rule from their prompt, and none from AGENTS.md or the sandbox text", () => {
    expect(ofKind("preference").map((p) => p.content)).toEqual(["Run the tests before you tell me something is done."]);
    const everything = found.map((c) => [c.content, c.problem, c.solution].join("\n")).join("\n");
    expect(everything).not.toMatch(/pnpm in this repo|never npm|generated files|network access/i);
  });

  it("finds the same episode in a copy read from disk", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memd-codex-"));
    try {
      const file = path.join(dir, "rollout-2026-05-20T09-00-00-019e4b2c-7d15-7a30-9c41-5b8e2f6a0d17.jsonl");
      fs.writeFileSync(file, ROLLOUT);
      const read = await readTranscript(file);
      expect(extractCandidates(read.events, read.cwd)).toEqual(found);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
