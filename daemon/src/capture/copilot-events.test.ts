import { describe, expect, it } from "vitest";
import type { CaptureCandidate } from "./candidate.js";
import { extractCandidates } from "./extract-candidates.js";
import { readTranscript } from "./read-transcript.js";
import type { TranscriptToolResult } from "./transcript-event.js";
import { parseTranscriptLine } from "./transcript-line.js";
import { AUTH_FIX_TEXTS, eventsOf, textsOf, toolUsesOf, transcriptFixture } from "../../../test/helpers/transcript-fixture.js";

const { file: FIXTURE, lines: LINES } = transcriptFixture("copilot-transcript.jsonl");
const ROOT = "/home/maya/code/acme-api";
const TEST_1 = "toolu_bdrk_01Hq7N2kVwz3R8sT5yLpXcAe";
const EDIT = "toolu_bdrk_01Kd4F8sQm2Wn7Xc3VbRtYuP";
const TEST_2 = "toolu_bdrk_01Pz9Lm3Qx7Tn2Vb5Rc8YwEk";


const events = eventsOf(LINES);
const texts = textsOf;
const uses = toolUsesOf(events);
const resultOf = (id: string) => events.find((e): e is TranscriptToolResult => e.kind === "tool-result" && e.toolUseId === id);
const lineWith = (needle: string) => LINES.findIndex((l) => l.includes(needle)) + 1;

/** One session event, as Copilot writes it. */
let seq = 0;
const event = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type, data, id: `e-${(seq += 1)}`, timestamp: "2026-12-01T09:00:00.000Z", parentId: null, ...extra });

describe("readTranscript on a Copilot CLI events.jsonl", () => {
  it("takes the session id and cwd from session.start", async () => {
    const read = await readTranscript(FIXTURE);
    expect(read).toMatchObject({ sessionId: "c4ab6e92-d285-404d-8cf7-c8cb6006334e", cwd: ROOT, linesRead: LINES.length, malformedLines: 0 });
    expect(read.events).toEqual(events);
  });

  it("reads each message once, and no message Copilot wrote itself", () => {
    expect(texts(events)).toEqual(AUTH_FIX_TEXTS);
    // A skill's hidden prompt has a source; the transformed content (with its wrapping) is not read.
    expect(JSON.stringify(events)).not.toMatch(/short paragraph|current_datetime/);
  });

  it("reads each tool run once, from execution_start, whether its arguments are an object or JSON in a string", () => {
    expect(uses.map((u) => [u.id, u.name, u.command, u.filePath, u.line])).toEqual([
      [TEST_1, "Bash", "pnpm test src/auth", "", lineWith(`"tool.execution_start","data":{"toolCallId":"${TEST_1}"`)],
      [EDIT, "Edit", "", `${ROOT}/src/auth/tokens.ts`, lineWith(`"tool.execution_start","data":{"toolCallId":"${EDIT}"`)],
      [TEST_2, "Bash", "pnpm test src/auth", "", lineWith(`"tool.execution_start","data":{"toolCallId":"${TEST_2}"`)],
    ]);
    // The same calls in assistant.message toolRequests yield nothing more.
    expect(LINES.filter((l) => l.includes('"toolRequests":[{'))).toHaveLength(3);
  });

  it("takes a failed command, a successful tool call, as an error from its exit code", () => {
    expect(resultOf(TEST_1)?.isError).toBe(true);
    expect(resultOf(TEST_1)?.outputHead).toMatch(/^Exit code 1\n> acme-api@0\.14\.2 test/);
    expect(resultOf(TEST_1)?.outputHead).not.toContain("<shellId");
    expect(resultOf(EDIT)).toMatchObject({ isError: false, outputHead: `File ${ROOT}/src/auth/tokens.ts updated with changes.` });
    // No shellExecution on this one: the trailer alone gives exit code 0.
    expect(resultOf(TEST_2)).toMatchObject({ isError: false, outputHead: expect.stringMatching(/^Exit code 0\n> acme-api[\s\S]*3 passed \(3\)$/) });
  });

  it("finds the failing test, the fix and the passing rerun as one episode, and the user's standing rule", () => {
    const found = extractCandidates(events, ROOT);
    const episodes = found.filter((c) => c.kind === "episode");
    expect(episodes).toHaveLength(1);
    const episode = episodes[0] as CaptureCandidate;
    expect(episode).toMatchObject({ files: ["src/auth/tokens.ts"], concepts: ["pnpm"], line: lineWith(`"tool.execution_complete","data":{"toolCallId":"${TEST_1}"`) });
    expect(episode.problem).toMatch(/^`pnpm test src\/auth` failed \(exit code 1\): FAIL src\/auth\/__tests__\/tokens\.test\.ts > verifyAccessToken/);
    expect(episode.solution).toContain("Changed src/auth/tokens.ts.");
    expect(found.filter((c) => c.kind === "preference").map((p) => p.content)).toEqual(["Run the auth tests before you say a fix is done."]);
  });
});

describe("parseTranscriptLine on other Copilot CLI events", () => {
  const complete = (toolCallId: string, data: Record<string, unknown>) => eventsOf([event("tool.execution_complete", { toolCallId, ...data })])[0];

  it("reads the exit code from shellExecution, a shell_exit block or either trailer, past sandbox notices", () => {
    expect(complete("a", { success: true, result: { content: "boom\n<exited with exit code 2>" } })).toMatchObject({ isError: true, outputHead: "Exit code 2\nboom" });
    expect(complete("b", { success: true, result: { content: "boom\n<shellId: 3 completed with exit code 1>\n<sandbox is active for this command.>\n" } })).toMatchObject({
      isError: true,
      outputHead: "Exit code 1\nboom\n<sandbox is active for this command.>",
    });
    expect(complete("c", { success: true, result: { content: "ok", contents: [{ type: "shell_exit", shellId: "0", exitCode: 0 }] } })).toMatchObject({ isError: false, outputHead: "Exit code 0\nok" });
    expect(complete("d", { success: true, result: { content: "x\n<shellId: 0 completed with exit code 0>" }, shellExecution: { exitCode: 127 } })).toMatchObject({ isError: true, outputHead: "Exit code 127\nx" });
    expect(complete("e", { success: false, error: { message: "Permission denied by the user", code: "denied" } })).toMatchObject({ isError: true, outputHead: "Permission denied by the user" });
  });

  it("maps edit tools to Edit and Write with their path, and leaves background shell runs out", () => {
    const start = (toolName: string, args: unknown) => eventsOf([event("tool.execution_start", { toolCallId: `t-${toolName}`, toolName, arguments: args })]);
    expect(start("create", { path: "/w/a.md", file_text: "# A" })).toMatchObject([{ name: "Write", filePath: "/w/a.md" }]);
    expect(start("str_replace_editor", { command: "str_replace", path: "/w/b.ts", old_str: "a", new_str: "b" })).toMatchObject([{ name: "Edit", filePath: "/w/b.ts" }]);
    expect(start("str_replace_editor", { command: "view", path: "/w/b.ts" })).toMatchObject([{ name: "str_replace_editor", filePath: "" }]);
    expect(start("apply_patch", "*** Begin Patch\n*** Update File: src/c.ts\n@@\n-a\n+b\n*** End Patch")).toMatchObject([{ name: "Edit", filePath: "src/c.ts" }]);
    expect(start("powershell", { command: "Get-ChildItem" })).toMatchObject([{ name: "Bash", command: "Get-ChildItem" }]);
    expect(start("bash", { command: "pnpm dev", mode: "async" })).toEqual([]);
    expect(start("view", { path: "/w/a.md" })).toMatchObject([{ name: "view", command: "", filePath: "" }]);
  });

  it("leaves out sub-agents' events and autopilot continuations", () => {
    expect(
      eventsOf([
        event("user.message", { content: "Always lint first." }, { agentId: "explore-1" }),
        event("assistant.message", { content: "Linting.", toolRequests: [], parentToolCallId: "task-1" }),
        event("tool.execution_start", { toolCallId: "s1", toolName: "bash", arguments: { command: "pnpm lint" } }, { agentId: "explore-1" }),
        event("user.message", { content: "Continue with the plan.", isAutopilotContinuation: true }),
        event("user.message", { content: "Review this diff.", source: "agent-reviewer" }),
        event("user.message", { content: "Never skip the canary.", source: "user" }),
      ]),
    ).toMatchObject([{ kind: "text", role: "user", text: "Never skip the canary." }]);
  });
});
